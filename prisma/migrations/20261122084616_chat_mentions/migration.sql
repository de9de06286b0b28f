-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "chat_message_ref_id" TEXT;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_chat_message_ref_id_fkey" FOREIGN KEY ("chat_message_ref_id") REFERENCES "chat_message_refs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
