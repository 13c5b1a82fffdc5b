-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_InventoryItem" (
    "petId" BIGINT NOT NULL PRIMARY KEY,
    "quantity" INTEGER NOT NULL DEFAULT 0,
    "openOrders" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "InventoryItem_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_InventoryItem" ("openOrders", "petId", "quantity") SELECT "openOrders", "petId", "quantity" FROM "InventoryItem";
DROP TABLE "InventoryItem";
ALTER TABLE "new_InventoryItem" RENAME TO "InventoryItem";
CREATE INDEX "InventoryItem_quantity_openOrders_idx" ON "InventoryItem"("quantity", "openOrders");
CREATE TABLE "new_Order" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "petId" BIGINT,
    "quantity" INTEGER NOT NULL,
    "shipDate" DATETIME,
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "apiKeyId" BIGINT,
    "version" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Order_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Order" ("apiKeyId", "complete", "createdAt", "id", "petId", "quantity", "shipDate") SELECT "apiKeyId", "complete", "createdAt", "id", "petId", "quantity", "shipDate" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE INDEX "Order_petId_id_idx" ON "Order"("petId", "id");
CREATE INDEX "Order_complete_id_idx" ON "Order"("complete", "id");
CREATE INDEX "Order_apiKeyId_id_idx" ON "Order"("apiKeyId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
