-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "ap_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "chat_messages_ap_id_key" ON "chat_messages"("ap_id");
