-- Added in place (not by redefining the table, as Prisma writes it), so that the table keeps its TableVersion
-- triggers.
-- AlterTable
ALTER TABLE "IdempotencyRecord" ADD COLUMN "bodyBytes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "IdempotencyRecord" ADD COLUMN "bodyDigest" TEXT;

-- CreateIndex
CREATE INDEX "IdempotencyRecord_apiKeyId_expiresAt_bodyBytes_idx" ON "IdempotencyRecord"("apiKeyId", "expiresAt", "bodyBytes");
