-- AlterTable
ALTER TABLE "statuses" ADD COLUMN     "direct_conversation_id" TEXT;

-- CreateTable
CREATE TABLE "lists" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "replies_policy" TEXT NOT NULL DEFAULT 'list',
    "exclusive" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "list_members" (
    "list_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "list_members_pkey" PRIMARY KEY ("list_id","account_id")
);

-- CreateTable
CREATE TABLE "filters" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "phrase" TEXT NOT NULL,
    "context" TEXT[],
    "whole_word" BOOLEAN NOT NULL DEFAULT true,
    "irreversible" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "markers" (
    "account_id" TEXT NOT NULL,
    "timeline" TEXT NOT NULL,
    "last_read_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "markers_pkey" PRIMARY KEY ("account_id","timeline")
);

-- CreateTable
CREATE TABLE "conversations" (
    "id" TEXT NOT NULL,
    "last_status_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_participations" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "unread" BOOLEAN NOT NULL DEFAULT true,
    "recipient_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_participations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lists_account_id_idx" ON "lists"("account_id");

-- CreateIndex
CREATE INDEX "list_members_account_id_idx" ON "list_members"("account_id");

-- CreateIndex
CREATE INDEX "filters_account_id_idx" ON "filters"("account_id");

-- CreateIndex
CREATE INDEX "conversation_participations_account_id_updated_at_idx" ON "conversation_participations"("account_id", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_participations_conversation_id_account_id_key" ON "conversation_participations"("conversation_id", "account_id");

-- CreateIndex
CREATE INDEX "statuses_direct_conversation_id_id_idx" ON "statuses"("direct_conversation_id", "id");

-- AddForeignKey
ALTER TABLE "lists" ADD CONSTRAINT "lists_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_list_id_fkey" FOREIGN KEY ("list_id") REFERENCES "lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "filters" ADD CONSTRAINT "filters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "markers" ADD CONSTRAINT "markers_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_participations" ADD CONSTRAINT "conversation_participations_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_participations" ADD CONSTRAINT "conversation_participations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
