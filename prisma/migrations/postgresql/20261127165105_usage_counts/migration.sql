-- CreateTable
CREATE TABLE "UsageCount" (
    "apiKeyId" BIGINT NOT NULL,
    "span" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "metric" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "UsageCount_pkey" PRIMARY KEY ("apiKeyId","span","startsAt","metric")
);

-- CreateIndex
CREATE INDEX "UsageCount_startsAt_idx" ON "UsageCount"("startsAt");
