-- CreateTable
CREATE TABLE "suggestion_dismissals" (
    "account_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suggestion_dismissals_pkey" PRIMARY KEY ("account_id","target_id")
);

-- CreateIndex
CREATE INDEX "suggestion_dismissals_target_id_idx" ON "suggestion_dismissals"("target_id");

-- AddForeignKey
ALTER TABLE "suggestion_dismissals" ADD CONSTRAINT "suggestion_dismissals_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "suggestion_dismissals" ADD CONSTRAINT "suggestion_dismissals_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
