-- Issue 39: the lease a row's owner keeps, ms (its STUDYLOOP_LEASE_SECONDS). Another server judges the row
-- by this lease, not its own, so hosts set differently never end each other's live sessions early.
ALTER TABLE "study_sessions" ADD COLUMN "lease_ms" INTEGER;
