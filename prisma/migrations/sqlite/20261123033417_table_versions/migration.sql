-- CreateTable
CREATE TABLE "TableVersion" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "version" INTEGER NOT NULL DEFAULT 0
);

-- One counter per table, raised by every insert, update and delete of one of its rows, whoever commits it (this
-- process, another gateway process, a script): the response cache drops only results that read a changed table.
-- Every table of the model has its triggers, so that a change with no counter moved is never a table's.
INSERT INTO "TableVersion" ("name") VALUES ('Category'), ('Pet'), ('InventoryItem'), ('Order'), ('ApiKey'), ('TrustedDocument'), ('IdempotencyRecord');
CREATE TRIGGER "Category_insert_version" AFTER INSERT ON "Category" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Category';
END;
CREATE TRIGGER "Category_update_version" AFTER UPDATE ON "Category" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Category';
END;
CREATE TRIGGER "Category_delete_version" AFTER DELETE ON "Category" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Category';
END;
CREATE TRIGGER "Pet_insert_version" AFTER INSERT ON "Pet" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Pet';
END;
CREATE TRIGGER "Pet_update_version" AFTER UPDATE ON "Pet" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Pet';
END;
CREATE TRIGGER "Pet_delete_version" AFTER DELETE ON "Pet" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Pet';
END;
CREATE TRIGGER "InventoryItem_insert_version" AFTER INSERT ON "InventoryItem" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'InventoryItem';
END;
CREATE TRIGGER "InventoryItem_update_version" AFTER UPDATE ON "InventoryItem" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'InventoryItem';
END;
CREATE TRIGGER "InventoryItem_delete_version" AFTER DELETE ON "InventoryItem" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'InventoryItem';
END;
CREATE TRIGGER "Order_insert_version" AFTER INSERT ON "Order" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Order';
END;
CREATE TRIGGER "Order_update_version" AFTER UPDATE ON "Order" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Order';
END;
CREATE TRIGGER "Order_delete_version" AFTER DELETE ON "Order" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'Order';
END;
CREATE TRIGGER "ApiKey_insert_version" AFTER INSERT ON "ApiKey" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'ApiKey';
END;
CREATE TRIGGER "ApiKey_update_version" AFTER UPDATE ON "ApiKey" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'ApiKey';
END;
CREATE TRIGGER "ApiKey_delete_version" AFTER DELETE ON "ApiKey" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'ApiKey';
END;
CREATE TRIGGER "TrustedDocument_insert_version" AFTER INSERT ON "TrustedDocument" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'TrustedDocument';
END;
CREATE TRIGGER "TrustedDocument_update_version" AFTER UPDATE ON "TrustedDocument" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'TrustedDocument';
END;
CREATE TRIGGER "TrustedDocument_delete_version" AFTER DELETE ON "TrustedDocument" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'TrustedDocument';
END;
CREATE TRIGGER "IdempotencyRecord_insert_version" AFTER INSERT ON "IdempotencyRecord" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'IdempotencyRecord';
END;
CREATE TRIGGER "IdempotencyRecord_update_version" AFTER UPDATE ON "IdempotencyRecord" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'IdempotencyRecord';
END;
CREATE TRIGGER "IdempotencyRecord_delete_version" AFTER DELETE ON "IdempotencyRecord" BEGIN
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = 'IdempotencyRecord';
END;
