-- AlterTable
ALTER TABLE "IdempotencyRecord" ADD COLUMN     "bodyBytes" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "bodyDigest" TEXT;

-- CreateIndex
CREATE INDEX "IdempotencyRecord_apiKeyId_expiresAt_bodyBytes_idx" ON "IdempotencyRecord"("apiKeyId", "expiresAt", "bodyBytes");
