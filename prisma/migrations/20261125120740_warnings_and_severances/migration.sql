-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "account_warning_id" TEXT,
ADD COLUMN     "severance_event_id" TEXT;

-- CreateTable
CREATE TABLE "account_warnings" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "actor_id" TEXT,
    "action" TEXT NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "status_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "report_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_warnings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "relationship_severance_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "target_name" TEXT NOT NULL,
    "purged" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "relationship_severance_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_relationship_severance_events" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "followers_count" INTEGER NOT NULL,
    "following_count" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_relationship_severance_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "severed_relationships" (
    "id" TEXT NOT NULL,
    "account_event_id" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "acct" TEXT NOT NULL,
    "show_reblogs" BOOLEAN NOT NULL DEFAULT true,
    "notify" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "severed_relationships_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_warnings_account_id_id_idx" ON "account_warnings"("account_id", "id");

-- CreateIndex
CREATE INDEX "account_relationship_severance_events_account_id_id_idx" ON "account_relationship_severance_events"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "account_relationship_severance_events_event_id_account_id_key" ON "account_relationship_severance_events"("event_id", "account_id");

-- CreateIndex
CREATE INDEX "severed_relationships_account_event_id_direction_id_idx" ON "severed_relationships"("account_event_id", "direction", "id");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_warning_id_fkey" FOREIGN KEY ("account_warning_id") REFERENCES "account_warnings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_severance_event_id_fkey" FOREIGN KEY ("severance_event_id") REFERENCES "account_relationship_severance_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_warnings" ADD CONSTRAINT "account_warnings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_warnings" ADD CONSTRAINT "account_warnings_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_relationship_severance_events" ADD CONSTRAINT "account_relationship_severance_events_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "relationship_severance_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_relationship_severance_events" ADD CONSTRAINT "account_relationship_severance_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "severed_relationships" ADD CONSTRAINT "severed_relationships_account_event_id_fkey" FOREIGN KEY ("account_event_id") REFERENCES "account_relationship_severance_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
