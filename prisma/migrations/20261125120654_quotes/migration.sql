-- AlterTable
ALTER TABLE "statuses" ADD COLUMN     "quote_id" TEXT;

-- CreateIndex
CREATE INDEX "statuses_quote_id_idx" ON "statuses"("quote_id");

-- AddForeignKey
ALTER TABLE "statuses" ADD CONSTRAINT "statuses_quote_id_fkey" FOREIGN KEY ("quote_id") REFERENCES "statuses"("id") ON DELETE SET NULL ON UPDATE CASCADE;
