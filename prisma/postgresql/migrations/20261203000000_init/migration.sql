-- The whole schema for PostgreSQL as Prisma writes it, matching prisma/migrations up to
-- 20261202100000_history_aggregates. What Prisma cannot model (the full-text search index and the
-- triggers that keep search_docs and topic_mark_tallies) comes in the migrations after this one.

-- CreateTable
CREATE TABLE "study_sessions" (
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "energy" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'study',
    "status" TEXT NOT NULL DEFAULT 'starting',
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMP(3),
    "end_reason" TEXT,
    "exit_code" INTEGER,
    "end_detail" TEXT,
    "end_output" TEXT,
    "continued_from_id" TEXT,
    "owner_instance" TEXT,
    "owner_host" TEXT,
    "owner_boot_id" TEXT,
    "owner_pid" INTEGER,
    "owner_pid_start_time" TEXT,
    "owner_url" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "mux_session" TEXT,
    "agent_session_id" TEXT,
    "token_hash" TEXT,
    "live_slot" INTEGER,
    "focus_plan" TEXT NOT NULL DEFAULT 'energy',
    "focus_minutes" INTEGER NOT NULL DEFAULT 25,
    "break_minutes" INTEGER NOT NULL DEFAULT 5,
    "paused_at" TIMESTAMP(3),
    "paused_ms" INTEGER NOT NULL DEFAULT 0,
    "nudges_shown" TEXT NOT NULL DEFAULT '[]',
    "last_viewer_at" TIMESTAMP(3),
    "attached_once" BOOLEAN NOT NULL DEFAULT false,
    "win_count" INTEGER NOT NULL DEFAULT 0,
    "struggle_count" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "transcript" TEXT,
    "transcript_at" TIMESTAMP(3),
    "cols" INTEGER NOT NULL DEFAULT 80,
    "rows" INTEGER NOT NULL DEFAULT 24,
    "recording_path" TEXT,
    "recording_bytes" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "study_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "parked_items" (
    "id" TEXT NOT NULL,
    "session_id" TEXT,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'learner',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMP(3),
    "carried_from_id" TEXT,
    CONSTRAINT "parked_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "topic_marks" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'learner',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "topic_marks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "acp_events" (
    "id" SERIAL NOT NULL,
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "acp_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "devices" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    CONSTRAINT "devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cards" (
    "id" TEXT NOT NULL,
    "front" TEXT NOT NULL,
    "back" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'hand',
    "origin_id" TEXT,
    "session_id" TEXT,
    "author" TEXT NOT NULL DEFAULT 'learner',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due" TIMESTAMP(3) NOT NULL,
    "stability" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "difficulty" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "scheduled_days" INTEGER NOT NULL DEFAULT 0,
    "learning_steps" INTEGER NOT NULL DEFAULT 0,
    "reps" INTEGER NOT NULL DEFAULT 0,
    "lapses" INTEGER NOT NULL DEFAULT 0,
    "state" INTEGER NOT NULL DEFAULT 0,
    "last_review" TIMESTAMP(3),
    CONSTRAINT "cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "card_reviews" (
    "id" SERIAL NOT NULL,
    "card_id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "reviewed_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER,
    "parameters" TEXT NOT NULL,
    "state_before" INTEGER NOT NULL,
    "state" INTEGER NOT NULL,
    "due" TIMESTAMP(3) NOT NULL,
    "stability" DOUBLE PRECISION NOT NULL,
    "difficulty" DOUBLE PRECISION NOT NULL,
    "scheduled_days" INTEGER NOT NULL,
    "learning_steps" INTEGER NOT NULL,
    CONSTRAINT "card_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_docs" (
    "id" SERIAL NOT NULL,
    "session_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT,
    "at_ms" INTEGER,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "search_docs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_devices" (
    "id" TEXT NOT NULL,
    "device_id" TEXT,
    "name" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "sound" BOOLEAN NOT NULL DEFAULT true,
    "push_endpoint" TEXT,
    "push_p256dh" TEXT,
    "push_auth" TEXT,
    "ntfy_url" TEXT,
    "origin" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3),
    CONSTRAINT "notification_devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_log" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "session_id" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acted_at" TIMESTAMP(3),
    "deliveries" TEXT,
    CONSTRAINT "notification_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "study_day_totals" (
    "day" TEXT NOT NULL,
    "focus_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    CONSTRAINT "study_day_totals_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "history_aggregates" (
    "id" INTEGER NOT NULL,
    "time_zone" TEXT NOT NULL,
    "built_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "history_aggregates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "topic_mark_tallies" (
    "topic" TEXT NOT NULL,
    "first_mark" INTEGER NOT NULL,
    "marks" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "struggles" INTEGER NOT NULL DEFAULT 0,
    "learning" INTEGER NOT NULL DEFAULT 0,
    "insights" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "topic_mark_tallies_pkey" PRIMARY KEY ("topic")
);

-- CreateIndex
CREATE INDEX "study_sessions_ended_at_idx" ON "study_sessions"("ended_at");

-- CreateIndex
CREATE UNIQUE INDEX "study_sessions_live_slot_key" ON "study_sessions"("live_slot");

-- CreateIndex
CREATE INDEX "study_sessions_started_at_idx" ON "study_sessions"("started_at");

-- CreateIndex
CREATE INDEX "study_sessions_topic_idx" ON "study_sessions"("topic");

-- CreateIndex
CREATE INDEX "study_sessions_topic_started_at_idx" ON "study_sessions"("topic", "started_at");

-- CreateIndex
CREATE INDEX "parked_items_carried_from_id_idx" ON "parked_items"("carried_from_id");

-- CreateIndex
CREATE INDEX "parked_items_created_at_idx" ON "parked_items"("created_at");

-- CreateIndex
CREATE INDEX "parked_items_session_id_idx" ON "parked_items"("session_id");

-- CreateIndex
CREATE INDEX "parked_items_status_idx" ON "parked_items"("status");

-- CreateIndex
CREATE INDEX "topic_marks_created_at_idx" ON "topic_marks"("created_at");

-- CreateIndex
CREATE INDEX "topic_marks_session_id_idx" ON "topic_marks"("session_id");

-- CreateIndex
CREATE INDEX "topic_marks_topic_idx" ON "topic_marks"("topic");

-- CreateIndex
CREATE UNIQUE INDEX "acp_events_session_id_seq_key" ON "acp_events"("session_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "devices_token_hash_key" ON "devices"("token_hash");

-- CreateIndex
CREATE INDEX "cards_due_idx" ON "cards"("due");

-- CreateIndex
CREATE INDEX "cards_origin_id_idx" ON "cards"("origin_id");

-- CreateIndex
CREATE INDEX "cards_topic_idx" ON "cards"("topic");

-- CreateIndex
CREATE INDEX "card_reviews_card_id_reviewed_at_idx" ON "card_reviews"("card_id", "reviewed_at");

-- CreateIndex
CREATE INDEX "card_reviews_reviewed_at_idx" ON "card_reviews"("reviewed_at");

-- CreateIndex
CREATE INDEX "search_docs_session_id_kind_idx" ON "search_docs"("session_id", "kind");

-- CreateIndex
CREATE INDEX "search_docs_source_id_idx" ON "search_docs"("source_id");

-- CreateIndex
CREATE INDEX "notification_devices_device_id_idx" ON "notification_devices"("device_id");

-- CreateIndex
CREATE INDEX "notification_log_created_at_idx" ON "notification_log"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "notification_log_key_key" ON "notification_log"("key");

-- AddForeignKey
ALTER TABLE "parked_items" ADD CONSTRAINT "parked_items_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "topic_marks" ADD CONSTRAINT "topic_marks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "acp_events" ADD CONSTRAINT "acp_events_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cards" ADD CONSTRAINT "cards_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "card_reviews" ADD CONSTRAINT "card_reviews_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_docs" ADD CONSTRAINT "search_docs_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_devices" ADD CONSTRAINT "notification_devices_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE CASCADE;
