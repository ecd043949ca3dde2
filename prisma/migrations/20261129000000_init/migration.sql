-- CreateTable
CREATE TABLE "study_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "energy" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT 'study',
    "status" TEXT NOT NULL DEFAULT 'starting',
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" DATETIME,
    "end_reason" TEXT,
    "exit_code" INTEGER,
    "end_detail" TEXT,
    "owner_instance" TEXT,
    "owner_host" TEXT,
    "owner_boot_id" TEXT,
    "owner_pid" INTEGER,
    "owner_pid_start_time" TEXT,
    "owner_url" TEXT,
    "heartbeat_at" DATETIME,
    "mux_session" TEXT,
    "agent_session_id" TEXT,
    "token_hash" TEXT,
    "live_slot" INTEGER,
    "focus_plan" TEXT NOT NULL DEFAULT 'energy',
    "focus_minutes" INTEGER NOT NULL DEFAULT 25,
    "break_minutes" INTEGER NOT NULL DEFAULT 5,
    "paused_at" DATETIME,
    "paused_ms" INTEGER NOT NULL DEFAULT 0,
    "nudges_shown" TEXT NOT NULL DEFAULT '[]',
    "last_viewer_at" DATETIME,
    "attached_once" BOOLEAN NOT NULL DEFAULT false,
    "win_count" INTEGER NOT NULL DEFAULT 0,
    "struggle_count" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "transcript" TEXT,
    "transcript_at" DATETIME,
    "cols" INTEGER NOT NULL DEFAULT 80,
    "rows" INTEGER NOT NULL DEFAULT 24
);

-- CreateTable
CREATE TABLE "parked_items" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "session_id" TEXT,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'learner',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" DATETIME,
    CONSTRAINT "parked_items_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "topic_marks" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "session_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'learner',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "topic_marks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "study_sessions_live_slot_key" ON "study_sessions"("live_slot");

-- CreateIndex
CREATE INDEX "study_sessions_started_at_idx" ON "study_sessions"("started_at");

-- CreateIndex
CREATE INDEX "study_sessions_topic_idx" ON "study_sessions"("topic");

-- CreateIndex
CREATE INDEX "parked_items_session_id_idx" ON "parked_items"("session_id");

-- CreateIndex
CREATE INDEX "parked_items_status_idx" ON "parked_items"("status");

-- CreateIndex
CREATE INDEX "topic_marks_session_id_idx" ON "topic_marks"("session_id");
