-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "filtered" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "notification_policies" (
    "account_id" TEXT NOT NULL,
    "for_not_following" TEXT NOT NULL DEFAULT 'accept',
    "for_not_followers" TEXT NOT NULL DEFAULT 'accept',
    "for_new_accounts" TEXT NOT NULL DEFAULT 'accept',
    "for_private_mentions" TEXT NOT NULL DEFAULT 'accept',
    "for_limited_accounts" TEXT NOT NULL DEFAULT 'accept',

    CONSTRAINT "notification_policies_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "notification_requests" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "from_account_id" TEXT NOT NULL,
    "last_status_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_permissions" (
    "account_id" TEXT NOT NULL,
    "from_account_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_permissions_pkey" PRIMARY KEY ("account_id","from_account_id")
);

-- CreateIndex
CREATE INDEX "notification_requests_account_id_id_idx" ON "notification_requests"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_requests_account_id_from_account_id_key" ON "notification_requests"("account_id", "from_account_id");

-- AddForeignKey
ALTER TABLE "notification_policies" ADD CONSTRAINT "notification_policies_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_requests" ADD CONSTRAINT "notification_requests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_requests" ADD CONSTRAINT "notification_requests_from_account_id_fkey" FOREIGN KEY ("from_account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_permissions" ADD CONSTRAINT "notification_permissions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_permissions" ADD CONSTRAINT "notification_permissions_from_account_id_fkey" FOREIGN KEY ("from_account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
