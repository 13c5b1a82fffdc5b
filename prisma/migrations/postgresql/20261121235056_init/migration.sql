-- CreateEnum
CREATE TYPE "PetStatus" AS ENUM ('available', 'pending', 'sold');

-- CreateTable
CREATE TABLE "Category" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,

    CONSTRAINT "Category_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pet" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "status" "PetStatus" NOT NULL DEFAULT 'available',
    "categoryId" BIGINT NOT NULL,

    CONSTRAINT "Pet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InventoryItem" (
    "petId" BIGINT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 0,
    "openOrders" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "InventoryItem_pkey" PRIMARY KEY ("petId")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" BIGSERIAL NOT NULL,
    "petId" BIGINT,
    "quantity" INTEGER NOT NULL,
    "shipDate" TIMESTAMP(3),
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "perMinute" INTEGER,
    "perDay" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "Pet" ADD CONSTRAINT "Pet_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InventoryItem" ADD CONSTRAINT "InventoryItem_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_petId_fkey" FOREIGN KEY ("petId") REFERENCES "Pet"("id") ON DELETE SET NULL ON UPDATE CASCADE;
