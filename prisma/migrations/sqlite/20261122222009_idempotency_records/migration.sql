-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "apiKeyId" BIGINT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "headers" TEXT NOT NULL,
    "body" TEXT,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("apiKeyId", "key")
);

-- CreateIndex
CREATE INDEX "IdempotencyRecord_expiresAt_idx" ON "IdempotencyRecord"("expiresAt");
