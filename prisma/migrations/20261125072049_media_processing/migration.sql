-- AlterTable
ALTER TABLE "media_attachments" ADD COLUMN     "meta" JSONB,
ADD COLUMN     "preview_url" TEXT;
