-- CreateTable
CREATE TABLE "trend_reviews" (
    "kind" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "allowed" BOOLEAN NOT NULL,
    "reviewed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trend_reviews_pkey" PRIMARY KEY ("kind","target_id")
);
