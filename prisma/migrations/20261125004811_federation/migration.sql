-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "ed25519_private_key" TEXT,
ADD COLUMN     "ed25519_public_key" TEXT,
ADD COLUMN     "featured_url" TEXT,
ADD COLUMN     "followers_url" TEXT,
ADD COLUMN     "following_url" TEXT,
ADD COLUMN     "last_fetched_at" TIMESTAMP(3),
ADD COLUMN     "outbox_url" TEXT,
ADD COLUMN     "public_key_id" TEXT,
ADD COLUMN     "url" TEXT;

-- AlterTable
ALTER TABLE "favourites" ADD COLUMN     "ap_id" TEXT;

-- AlterTable
ALTER TABLE "follows" ADD COLUMN     "ap_id" TEXT;

-- AlterTable
ALTER TABLE "media_attachments" ADD COLUMN     "blurhash" TEXT;

-- AlterTable
ALTER TABLE "polls" ADD COLUMN     "remote_counts" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "remote_voters_count" INTEGER;

-- AlterTable
ALTER TABLE "reactions" ADD COLUMN     "ap_id" TEXT;

-- AlterTable
ALTER TABLE "statuses" ADD COLUMN     "object_type" TEXT NOT NULL DEFAULT 'Note';

-- AlterTable
ALTER TABLE "user_relationships" ADD COLUMN     "ap_id" TEXT;

-- CreateTable
CREATE TABLE "federation_kv" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "federation_kv_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "instances" (
    "domain" TEXT NOT NULL,
    "software_name" TEXT,
    "software_version" TEXT,
    "last_success_at" TIMESTAMP(3),
    "last_failure_at" TIMESTAMP(3),
    "unreachable_since" TIMESTAMP(3),
    "failure_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "instances_pkey" PRIMARY KEY ("domain")
);

-- CreateTable
CREATE TABLE "remote_emojis" (
    "id" TEXT NOT NULL,
    "shortcode" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ap_id" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "remote_emojis_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "federation_kv_expires_at_idx" ON "federation_kv"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "remote_emojis_shortcode_domain_key" ON "remote_emojis"("shortcode", "domain");

-- CreateIndex
CREATE UNIQUE INDEX "favourites_ap_id_key" ON "favourites"("ap_id");

-- CreateIndex
CREATE UNIQUE INDEX "reactions_ap_id_key" ON "reactions"("ap_id");
