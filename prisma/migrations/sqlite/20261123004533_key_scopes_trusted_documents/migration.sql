-- AlterTable
ALTER TABLE "Order" ADD COLUMN "apiKeyId" BIGINT;

-- CreateTable
CREATE TABLE "TrustedDocument" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "body" TEXT NOT NULL,
    "names" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "perMinute" INTEGER,
    "perDay" INTEGER,
    "scopes" TEXT NOT NULL DEFAULT 'read,orders',
    "trustedDocuments" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME
);
-- Keys issued before scopes keep their old powers: every scope (new keys default to read,orders).
INSERT INTO "new_ApiKey" ("createdAt", "hash", "id", "name", "perDay", "perMinute", "plan", "prefix", "revokedAt", "scopes") SELECT "createdAt", "hash", "id", "name", "perDay", "perMinute", "plan", "prefix", "revokedAt", 'read,orders,catalog,admin' FROM "ApiKey";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Order_apiKeyId_id_idx" ON "Order"("apiKeyId", "id");
