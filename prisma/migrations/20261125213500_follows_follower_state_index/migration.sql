-- CreateIndex
CREATE INDEX "follows_follower_id_state_idx" ON "follows"("follower_id", "state");
