-- CreateEnum
CREATE TYPE "FilterAction" AS ENUM ('warn', 'hide', 'blur');

-- CreateTable
CREATE TABLE "filter_keywords" (
    "id" TEXT NOT NULL,
    "filter_id" TEXT NOT NULL,
    "keyword" TEXT NOT NULL,
    "whole_word" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filter_keywords_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "filter_statuses" (
    "id" TEXT NOT NULL,
    "filter_id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filter_statuses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "filter_keywords_filter_id_idx" ON "filter_keywords"("filter_id");

-- CreateIndex
CREATE INDEX "filter_statuses_status_id_idx" ON "filter_statuses"("status_id");

-- CreateIndex
CREATE UNIQUE INDEX "filter_statuses_filter_id_status_id_key" ON "filter_statuses"("filter_id", "status_id");

-- AddForeignKey
ALTER TABLE "filter_keywords" ADD CONSTRAINT "filter_keywords_filter_id_fkey" FOREIGN KEY ("filter_id") REFERENCES "filters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "filter_statuses" ADD CONSTRAINT "filter_statuses_filter_id_fkey" FOREIGN KEY ("filter_id") REFERENCES "filters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "filter_statuses" ADD CONSTRAINT "filter_statuses_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each v1 filter becomes a filter titled with its phrase and one keyword with the same id (so v1
-- clients keep their ids); irreversible filters become `hide`, the others `warn`.
ALTER TABLE "filters" ADD COLUMN "action" "FilterAction" NOT NULL DEFAULT 'warn',
ADD COLUMN "title" TEXT;
INSERT INTO "filter_keywords" ("id", "filter_id", "keyword", "whole_word", "created_at")
  SELECT "id", "id", "phrase", "whole_word", "created_at" FROM "filters";
UPDATE "filters" SET "title" = "phrase", "action" = CASE WHEN "irreversible" THEN 'hide'::"FilterAction" ELSE 'warn'::"FilterAction" END;
ALTER TABLE "filters" ALTER COLUMN "title" SET NOT NULL,
DROP COLUMN "irreversible",
DROP COLUMN "phrase",
DROP COLUMN "whole_word";
