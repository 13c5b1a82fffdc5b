-- CreateTable
CREATE TABLE "TableVersion" (
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TableVersion_pkey" PRIMARY KEY ("name")
);

-- One counter per table, raised once by every transaction that inserted, updated or deleted rows of it, whoever
-- commits it (any gateway process, a script): the response cache and HTTP entity tags read them. A row trigger
-- notes the table in a transaction-local setting (undone with a rolled-back savepoint); a deferred trigger raises
-- the noted counters at commit, locking them in name order, so that two writers never deadlock on them and hold
-- them only while committing.
INSERT INTO "TableVersion" ("name") VALUES ('Category'), ('Pet'), ('InventoryItem'), ('Order'), ('ApiKey'), ('TrustedDocument'), ('IdempotencyRecord');

CREATE FUNCTION "note_table_change"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    noted text := coalesce(current_setting('petstore.changed_tables', true), '');
BEGIN
    IF position(',' || TG_TABLE_NAME || ',' IN ',' || noted) = 0 THEN
        PERFORM set_config('petstore.changed_tables', noted || TG_TABLE_NAME || ',', true);
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION "raise_table_versions"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    noted text[] := string_to_array(rtrim(coalesce(current_setting('petstore.changed_tables', true), ''), ','), ',');
BEGIN
    IF coalesce(cardinality(noted), 0) = 0 THEN
        RETURN NULL;
    END IF;
    PERFORM set_config('petstore.changed_tables', '', true);
    PERFORM 1 FROM "TableVersion" WHERE "name" = ANY (noted) ORDER BY "name" FOR UPDATE;
    UPDATE "TableVersion" SET "version" = "version" + 1 WHERE "name" = ANY (noted);
    RETURN NULL;
END
$$;
CREATE TRIGGER "Category_note_change" AFTER INSERT OR UPDATE OR DELETE ON "Category" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "Category_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "Category" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "Pet_note_change" AFTER INSERT OR UPDATE OR DELETE ON "Pet" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "Pet_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "Pet" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "InventoryItem_note_change" AFTER INSERT OR UPDATE OR DELETE ON "InventoryItem" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "InventoryItem_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "InventoryItem" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "Order_note_change" AFTER INSERT OR UPDATE OR DELETE ON "Order" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "Order_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "Order" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "ApiKey_note_change" AFTER INSERT OR UPDATE OR DELETE ON "ApiKey" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "ApiKey_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "ApiKey" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "TrustedDocument_note_change" AFTER INSERT OR UPDATE OR DELETE ON "TrustedDocument" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "TrustedDocument_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "TrustedDocument" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
CREATE TRIGGER "IdempotencyRecord_note_change" AFTER INSERT OR UPDATE OR DELETE ON "IdempotencyRecord" FOR EACH ROW EXECUTE FUNCTION "note_table_change"();
CREATE CONSTRAINT TRIGGER "IdempotencyRecord_raise_version" AFTER INSERT OR UPDATE OR DELETE ON "IdempotencyRecord" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_table_versions"();
