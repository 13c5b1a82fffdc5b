-- CreateTable
CREATE TABLE "UsageCount" (
    "apiKeyId" BIGINT NOT NULL,
    "span" TEXT NOT NULL,
    "startsAt" DATETIME NOT NULL,
    "metric" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("apiKeyId", "span", "startsAt", "metric")
);

-- CreateIndex
CREATE INDEX "UsageCount_startsAt_idx" ON "UsageCount"("startsAt");
