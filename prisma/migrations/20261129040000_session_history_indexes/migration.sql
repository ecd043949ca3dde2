-- CreateIndex
CREATE INDEX "study_sessions_ended_at_idx" ON "study_sessions"("ended_at");
