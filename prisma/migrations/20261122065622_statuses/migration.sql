-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('public', 'unlisted', 'private', 'direct', 'local', 'list');

-- CreateEnum
CREATE TYPE "ReportState" AS ENUM ('open', 'closed', 'resolved');

-- CreateTable
CREATE TABLE "statuses" (
    "id" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "url" TEXT,
    "account_id" TEXT NOT NULL,
    "local" BOOLEAN NOT NULL DEFAULT true,
    "in_reply_to_id" TEXT,
    "in_reply_to_account_id" TEXT,
    "reblog_of_id" TEXT,
    "content" TEXT NOT NULL DEFAULT '',
    "source" TEXT NOT NULL DEFAULT '',
    "content_type" TEXT NOT NULL DEFAULT 'text/plain',
    "spoiler_text" TEXT NOT NULL DEFAULT '',
    "sensitive" BOOLEAN NOT NULL DEFAULT false,
    "visibility" "Visibility" NOT NULL DEFAULT 'public',
    "list_id" TEXT,
    "language" TEXT,
    "context" TEXT NOT NULL,
    "application_id" INTEGER,
    "recipient_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMP(3),
    "edited_at" TIMESTAMP(3),
    "pinned_at" TIMESTAMP(3),
    "idempotency_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "statuses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mentions" (
    "status_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,

    CONSTRAINT "mentions_pkey" PRIMARY KEY ("status_id","account_id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_tags" (
    "status_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,

    CONSTRAINT "status_tags_pkey" PRIMARY KEY ("status_id","tag_id")
);

-- CreateTable
CREATE TABLE "media_attachments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status_id" TEXT,
    "type" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "remote_url" TEXT,
    "size" INTEGER NOT NULL DEFAULT 0,
    "description" TEXT,
    "focus_x" DOUBLE PRECISION,
    "focus_y" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "polls" (
    "id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "options" TEXT[],
    "multiple" BOOLEAN NOT NULL DEFAULT false,
    "hide_totals" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "polls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "poll_votes" (
    "id" TEXT NOT NULL,
    "poll_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "choice" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "poll_votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "favourites" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "favourites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bookmarks" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bookmarks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reactions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread_mutes" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "context" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "thread_mutes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_edits" (
    "id" TEXT NOT NULL,
    "status_id" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "spoiler_text" TEXT NOT NULL,
    "sensitive" BOOLEAN NOT NULL,
    "media_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "status_edits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduled_statuses" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "scheduled_at" TIMESTAMP(3) NOT NULL,
    "params" JSONB NOT NULL,
    "media_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_statuses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" TEXT NOT NULL,
    "reporter_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "status_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "comment" TEXT NOT NULL DEFAULT '',
    "forward" BOOLEAN NOT NULL DEFAULT false,
    "state" "ReportState" NOT NULL DEFAULT 'open',
    "status_snapshots" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "from_account_id" TEXT NOT NULL,
    "status_id" TEXT,
    "report_id" TEXT,
    "emoji" TEXT,
    "seen" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "statuses_uri_key" ON "statuses"("uri");

-- CreateIndex
CREATE INDEX "statuses_account_id_id_idx" ON "statuses"("account_id", "id");

-- CreateIndex
CREATE INDEX "statuses_in_reply_to_id_idx" ON "statuses"("in_reply_to_id");

-- CreateIndex
CREATE INDEX "statuses_reblog_of_id_idx" ON "statuses"("reblog_of_id");

-- CreateIndex
CREATE INDEX "statuses_context_idx" ON "statuses"("context");

-- CreateIndex
CREATE INDEX "statuses_visibility_id_idx" ON "statuses"("visibility", "id");

-- CreateIndex
CREATE UNIQUE INDEX "statuses_account_id_idempotency_key_key" ON "statuses"("account_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "statuses_account_id_reblog_of_id_key" ON "statuses"("account_id", "reblog_of_id");

-- CreateIndex
CREATE INDEX "mentions_account_id_idx" ON "mentions"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "tags_name_key" ON "tags"("name");

-- CreateIndex
CREATE INDEX "status_tags_tag_id_status_id_idx" ON "status_tags"("tag_id", "status_id");

-- CreateIndex
CREATE INDEX "media_attachments_status_id_idx" ON "media_attachments"("status_id");

-- CreateIndex
CREATE UNIQUE INDEX "polls_status_id_key" ON "polls"("status_id");

-- CreateIndex
CREATE UNIQUE INDEX "poll_votes_poll_id_account_id_choice_key" ON "poll_votes"("poll_id", "account_id", "choice");

-- CreateIndex
CREATE INDEX "favourites_status_id_idx" ON "favourites"("status_id");

-- CreateIndex
CREATE UNIQUE INDEX "favourites_account_id_status_id_key" ON "favourites"("account_id", "status_id");

-- CreateIndex
CREATE UNIQUE INDEX "bookmarks_account_id_status_id_key" ON "bookmarks"("account_id", "status_id");

-- CreateIndex
CREATE INDEX "reactions_status_id_idx" ON "reactions"("status_id");

-- CreateIndex
CREATE UNIQUE INDEX "reactions_account_id_status_id_emoji_key" ON "reactions"("account_id", "status_id", "emoji");

-- CreateIndex
CREATE UNIQUE INDEX "thread_mutes_account_id_context_key" ON "thread_mutes"("account_id", "context");

-- CreateIndex
CREATE INDEX "status_edits_status_id_created_at_idx" ON "status_edits"("status_id", "created_at");

-- CreateIndex
CREATE INDEX "scheduled_statuses_account_id_scheduled_at_idx" ON "scheduled_statuses"("account_id", "scheduled_at");

-- CreateIndex
CREATE INDEX "reports_state_created_at_idx" ON "reports"("state", "created_at");

-- CreateIndex
CREATE INDEX "notifications_account_id_id_idx" ON "notifications"("account_id", "id");

-- AddForeignKey
ALTER TABLE "statuses" ADD CONSTRAINT "statuses_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "statuses" ADD CONSTRAINT "statuses_in_reply_to_id_fkey" FOREIGN KEY ("in_reply_to_id") REFERENCES "statuses"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "statuses" ADD CONSTRAINT "statuses_reblog_of_id_fkey" FOREIGN KEY ("reblog_of_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "statuses" ADD CONSTRAINT "statuses_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth_apps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_tags" ADD CONSTRAINT "status_tags_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_tags" ADD CONSTRAINT "status_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "polls" ADD CONSTRAINT "polls_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_poll_id_fkey" FOREIGN KEY ("poll_id") REFERENCES "polls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_mutes" ADD CONSTRAINT "thread_mutes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_edits" ADD CONSTRAINT "status_edits_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scheduled_statuses" ADD CONSTRAINT "scheduled_statuses_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_from_account_id_fkey" FOREIGN KEY ("from_account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_status_id_fkey" FOREIGN KEY ("status_id") REFERENCES "statuses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
