-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "maxSubscriptions" INTEGER;
