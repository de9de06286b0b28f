-- CreateTable
CREATE TABLE "followed_tags" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "followed_tags_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "followed_tags_tag_id_idx" ON "followed_tags"("tag_id");

-- CreateIndex
CREATE UNIQUE INDEX "followed_tags_account_id_tag_id_key" ON "followed_tags"("account_id", "tag_id");

-- AddForeignKey
ALTER TABLE "followed_tags" ADD CONSTRAINT "followed_tags_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "followed_tags" ADD CONSTRAINT "followed_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;
