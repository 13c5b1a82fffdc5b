-- CreateTable
CREATE TABLE "Category" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "description" TEXT
);

-- CreateTable
CREATE TABLE "Pet" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'available',
    "categoryId" BIGINT NOT NULL,
    CONSTRAINT "Pet_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "InventoryItem" (
    "petId" BIGINT NOT NULL PRIMARY KEY,
    "quantity" INTEGER NOT NULL DEFAULT 0,
    "openOrders" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "InventoryItem_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Order" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "petId" BIGINT,
    "quantity" INTEGER NOT NULL,
    "shipDate" DATETIME,
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Order_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "perMinute" INTEGER,
    "perDay" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "Pet_categoryId_id_idx" ON "Pet"("categoryId", "id");

-- CreateIndex
CREATE INDEX "Pet_status_id_idx" ON "Pet"("status", "id");

-- CreateIndex
CREATE INDEX "InventoryItem_quantity_openOrders_idx" ON "InventoryItem"("quantity", "openOrders");

-- CreateIndex
CREATE INDEX "Order_petId_id_idx" ON "Order"("petId", "id");

-- CreateIndex
CREATE INDEX "Order_complete_id_idx" ON "Order"("complete", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");
