-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "scopes" TEXT NOT NULL DEFAULT 'read,orders',
ADD COLUMN     "trustedDocuments" TEXT;

-- Keys issued before scopes keep their old powers: every scope (new keys default to read,orders).
UPDATE "ApiKey" SET "scopes" = 'read,orders,catalog,admin';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "apiKeyId" BIGINT;

-- CreateTable
CREATE TABLE "TrustedDocument" (
    "hash" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "names" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrustedDocument_pkey" PRIMARY KEY ("hash")
);

-- CreateIndex
CREATE INDEX "Order_apiKeyId_id_idx" ON "Order"("apiKeyId", "id");
