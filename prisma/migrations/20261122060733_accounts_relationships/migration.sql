-- CreateEnum
CREATE TYPE "FollowState" AS ENUM ('pending', 'accept', 'reject');

-- CreateEnum
CREATE TYPE "RelationshipType" AS ENUM ('block', 'mute', 'notification_mute', 'subscription', 'endorsement');

-- CreateEnum
CREATE TYPE "AccountTokenKind" AS ENUM ('confirm_email', 'password_reset');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "accepts_chat_messages" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "allow_following_move" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "also_known_as" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "avatar" TEXT,
ADD COLUMN     "background" TEXT,
ADD COLUMN     "background_description" TEXT,
ADD COLUMN     "default_scope" TEXT NOT NULL DEFAULT 'public',
ADD COLUMN     "header" TEXT,
ADD COLUMN     "hide_favorites" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "hide_followers" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hide_followers_count" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hide_follows" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hide_follows_count" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "inbox" TEXT,
ADD COLUMN     "is_suggested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "language" TEXT,
ADD COLUMN     "last_active_at" TIMESTAMP(3),
ADD COLUMN     "last_status_at" TIMESTAMP(3),
ADD COLUMN     "moved_to_id" TEXT,
ADD COLUMN     "no_rich_text" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "notification_settings" JSONB NOT NULL DEFAULT '{"block_from_strangers":false,"hide_notification_contents":false}',
ADD COLUMN     "permit_followback" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "private_key" TEXT,
ADD COLUMN     "public_key" TEXT,
ADD COLUMN     "shared_inbox" TEXT,
ADD COLUMN     "show_role" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "skip_thread_containment" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "status_ttl_days" INTEGER;

-- CreateTable
CREATE TABLE "follows" (
    "id" TEXT NOT NULL,
    "follower_id" TEXT NOT NULL,
    "following_id" TEXT NOT NULL,
    "state" "FollowState" NOT NULL DEFAULT 'pending',
    "show_reblogs" BOOLEAN NOT NULL DEFAULT true,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "follows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_relationships" (
    "id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "type" "RelationshipType" NOT NULL,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_relationships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_notes" (
    "id" TEXT NOT NULL,
    "author_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "comment" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "domain_blocks" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domain_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_tokens" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" "AccountTokenKind" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invites" (
    "id" SERIAL NOT NULL,
    "token" TEXT NOT NULL,
    "used" BOOLEAN NOT NULL DEFAULT false,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "max_use" INTEGER,
    "expires_at" DATE,
    "invite_type" TEXT NOT NULL DEFAULT 'one_time',
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "follows_following_id_state_idx" ON "follows"("following_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "follows_follower_id_following_id_key" ON "follows"("follower_id", "following_id");

-- CreateIndex
CREATE INDEX "user_relationships_target_id_type_idx" ON "user_relationships"("target_id", "type");

-- CreateIndex
CREATE INDEX "user_relationships_expires_at_idx" ON "user_relationships"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "user_relationships_source_id_target_id_type_key" ON "user_relationships"("source_id", "target_id", "type");

-- CreateIndex
CREATE UNIQUE INDEX "account_notes_author_id_target_id_key" ON "account_notes"("author_id", "target_id");

-- CreateIndex
CREATE UNIQUE INDEX "domain_blocks_account_id_domain_key" ON "domain_blocks"("account_id", "domain");

-- CreateIndex
CREATE UNIQUE INDEX "account_tokens_token_hash_key" ON "account_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "account_tokens_account_id_kind_idx" ON "account_tokens"("account_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "invites_token_key" ON "invites"("token");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_moved_to_id_fkey" FOREIGN KEY ("moved_to_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_fkey" FOREIGN KEY ("follower_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_following_id_fkey" FOREIGN KEY ("following_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_relationships" ADD CONSTRAINT "user_relationships_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_relationships" ADD CONSTRAINT "user_relationships_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_notes" ADD CONSTRAINT "account_notes_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_notes" ADD CONSTRAINT "account_notes_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "domain_blocks" ADD CONSTRAINT "domain_blocks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
