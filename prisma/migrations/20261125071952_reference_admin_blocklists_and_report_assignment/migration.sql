-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "assigned_account_id" TEXT,
ADD COLUMN     "category" TEXT NOT NULL DEFAULT 'other',
ADD COLUMN     "rule_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "instance_domain_blocks" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'silence',
    "reject_media" BOOLEAN NOT NULL DEFAULT false,
    "reject_reports" BOOLEAN NOT NULL DEFAULT false,
    "private_comment" TEXT,
    "public_comment" TEXT,
    "obfuscate" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "instance_domain_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instance_domain_allows" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_domain_allows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_domain_blocks" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_domain_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "canonical_email_blocks" (
    "id" TEXT NOT NULL,
    "canonical_email_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "canonical_email_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ip_blocks" (
    "id" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ip_blocks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "instance_domain_blocks_domain_key" ON "instance_domain_blocks"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "instance_domain_allows_domain_key" ON "instance_domain_allows"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "email_domain_blocks_domain_key" ON "email_domain_blocks"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "canonical_email_blocks_canonical_email_hash_key" ON "canonical_email_blocks"("canonical_email_hash");

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_assigned_account_id_fkey" FOREIGN KEY ("assigned_account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
