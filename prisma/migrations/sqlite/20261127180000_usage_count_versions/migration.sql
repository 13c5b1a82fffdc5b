-- UsageCount gets its change counter and triggers like every other table: a table without them makes the
-- store's table versions unknown, and with them every entity tag and the response cache's per-table reuse.
INSERT INTO "TableVersion" ("name") VALUES ('UsageCount');
CREATE TRIGGER "UsageCount_insert_version" AFTER INSERT ON "UsageCount" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'UsageCount';
END;
CREATE TRIGGER "UsageCount_update_version" AFTER UPDATE ON "UsageCount" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'UsageCount';
END;
CREATE TRIGGER "UsageCount_delete_version" AFTER DELETE ON "UsageCount" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'UsageCount';
END;
