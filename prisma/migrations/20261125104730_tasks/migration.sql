-- CreateEnum
CREATE TYPE "TaskState" AS ENUM ('running', 'done', 'failed');

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "state" "TaskState" NOT NULL DEFAULT 'running',
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "cursor" TEXT,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tasks_key_state_idx" ON "tasks"("key", "state");
