-- Ownership across hosts (issue 21): a row names its owner's stable host id (the hostname is only
-- for display), carries a fencing generation that every owner write is conditional on (another
-- host that ends a lapsed row bumps it, so the old owner's late writes change nothing), and an End
-- asked for on another host is written to the row for its owner to carry out.
ALTER TABLE "study_sessions" ADD COLUMN "owner_host_id" TEXT;
ALTER TABLE "study_sessions" ADD COLUMN "owner_generation" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "study_sessions" ADD COLUMN "end_requested_at" DATETIME;
ALTER TABLE "study_sessions" ADD COLUMN "end_requested_by" TEXT;
