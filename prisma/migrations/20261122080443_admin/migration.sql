-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "mfa_backup_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "mfa_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "mfa_totp_secret" TEXT;

-- CreateTable
CREATE TABLE "report_notes" (
    "id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "author_id" TEXT,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "relays" (
    "id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "followed_back" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "relays_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "media_proxy_bans" (
    "url" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_proxy_bans_pkey" PRIMARY KEY ("url")
);

-- CreateTable
CREATE TABLE "announcements" (
    "id" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "starts_at" TIMESTAMP(3),
    "ends_at" TIMESTAMP(3),
    "all_day" BOOLEAN NOT NULL DEFAULT false,
    "published_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "announcements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "announcement_reads" (
    "announcement_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "announcement_reads_pkey" PRIMARY KEY ("announcement_id","account_id")
);

-- CreateTable
CREATE TABLE "announcement_reactions" (
    "announcement_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "announcement_reactions_pkey" PRIMARY KEY ("announcement_id","account_id","name")
);

-- CreateTable
CREATE TABLE "status_counters" (
    "instance" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "status_counters_pkey" PRIMARY KEY ("instance","visibility")
);

-- CreateIndex
CREATE INDEX "report_notes_report_id_created_at_idx" ON "report_notes"("report_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "relays_actor_key" ON "relays"("actor");

-- CreateIndex
CREATE INDEX "announcements_starts_at_ends_at_idx" ON "announcements"("starts_at", "ends_at");

-- AddForeignKey
ALTER TABLE "report_notes" ADD CONSTRAINT "report_notes_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "report_notes" ADD CONSTRAINT "report_notes_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_announcement_id_fkey" FOREIGN KEY ("announcement_id") REFERENCES "announcements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_reactions" ADD CONSTRAINT "announcement_reactions_announcement_id_fkey" FOREIGN KEY ("announcement_id") REFERENCES "announcements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "announcement_reactions" ADD CONSTRAINT "announcement_reactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Status counters for the admin stats, kept by a trigger: counting millions of rows per request is too slow.
CREATE FUNCTION status_counters_bump(p_account_id TEXT, p_visibility TEXT, p_delta INTEGER) RETURNS void AS $$
BEGIN
  INSERT INTO status_counters (instance, visibility, count)
  VALUES (COALESCE((SELECT domain FROM accounts WHERE id = p_account_id), ''), p_visibility, p_delta)
  ON CONFLICT (instance, visibility) DO UPDATE SET count = status_counters.count + EXCLUDED.count;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION status_counters_trigger() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.reblog_of_id IS NULL THEN
    PERFORM status_counters_bump(OLD.account_id, OLD.visibility::text, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.reblog_of_id IS NULL THEN
    PERFORM status_counters_bump(NEW.account_id, NEW.visibility::text, 1);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER statuses_count_insert_delete AFTER INSERT OR DELETE ON statuses
  FOR EACH ROW EXECUTE FUNCTION status_counters_trigger();
CREATE TRIGGER statuses_count_visibility AFTER UPDATE OF visibility ON statuses
  FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility) EXECUTE FUNCTION status_counters_trigger();

INSERT INTO status_counters (instance, visibility, count)
SELECT COALESCE(a.domain, ''), s.visibility::text, COUNT(*)
FROM statuses s JOIN accounts a ON a.id = s.account_id
WHERE s.reblog_of_id IS NULL
GROUP BY 1, 2;
