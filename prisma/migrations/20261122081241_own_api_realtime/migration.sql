-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "mascot" JSONB;

-- CreateTable
CREATE TABLE "backups" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL DEFAULT 'application/zip',
    "file_size" INTEGER NOT NULL DEFAULT 0,
    "processed" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "processed_number" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chats" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "recipient_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_messages" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "media_id" TEXT,
    "emojis" JSONB NOT NULL DEFAULT '[]',
    "idempotency_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_message_refs" (
    "id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "unread" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_message_refs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" SERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "token_id" INTEGER NOT NULL,
    "endpoint" TEXT NOT NULL,
    "key_p256dh" TEXT NOT NULL,
    "key_auth" TEXT NOT NULL,
    "alerts" JSONB NOT NULL DEFAULT '{}',
    "policy" TEXT NOT NULL DEFAULT 'all',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instance_secrets" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_secrets_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "captcha_uses" (
    "token" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "captcha_uses_pkey" PRIMARY KEY ("token")
);

-- CreateTable
CREATE TABLE "mfa_tokens" (
    "token_hash" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "app_id" INTEGER,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "purpose" TEXT NOT NULL DEFAULT 'token',
    "redirect_uri" TEXT,
    "state" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mfa_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE INDEX "backups_account_id_created_at_idx" ON "backups"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "chats_account_id_updated_at_idx" ON "chats"("account_id", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "chats_account_id_recipient_id_key" ON "chats"("account_id", "recipient_id");

-- CreateIndex
CREATE INDEX "chat_message_refs_chat_id_id_idx" ON "chat_message_refs"("chat_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "chat_message_refs_chat_id_message_id_key" ON "chat_message_refs"("chat_id", "message_id");

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_token_id_key" ON "push_subscriptions"("token_id");

-- CreateIndex
CREATE INDEX "push_subscriptions_account_id_idx" ON "push_subscriptions"("account_id");

-- CreateIndex
CREATE INDEX "captcha_uses_expires_at_idx" ON "captcha_uses"("expires_at");

-- AddForeignKey
ALTER TABLE "backups" ADD CONSTRAINT "backups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chats" ADD CONSTRAINT "chats_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chats" ADD CONSTRAINT "chats_recipient_id_fkey" FOREIGN KEY ("recipient_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "media_attachments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_message_refs" ADD CONSTRAINT "chat_message_refs_chat_id_fkey" FOREIGN KEY ("chat_id") REFERENCES "chats"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_message_refs" ADD CONSTRAINT "chat_message_refs_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "oauth_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mfa_tokens" ADD CONSTRAINT "mfa_tokens_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mfa_tokens" ADD CONSTRAINT "mfa_tokens_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "oauth_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
