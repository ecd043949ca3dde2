-- CreateTable
CREATE TABLE "cards" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "front" TEXT NOT NULL,
    "back" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'hand',
    "origin_id" TEXT,
    "session_id" TEXT,
    "author" TEXT NOT NULL DEFAULT 'learner',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due" DATETIME NOT NULL,
    "stability" REAL NOT NULL DEFAULT 0,
    "difficulty" REAL NOT NULL DEFAULT 0,
    "scheduled_days" INTEGER NOT NULL DEFAULT 0,
    "learning_steps" INTEGER NOT NULL DEFAULT 0,
    "reps" INTEGER NOT NULL DEFAULT 0,
    "lapses" INTEGER NOT NULL DEFAULT 0,
    "state" INTEGER NOT NULL DEFAULT 0,
    "last_review" DATETIME,
    CONSTRAINT "cards_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "card_reviews" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "card_id" TEXT NOT NULL,
    "rating" INTEGER NOT NULL,
    "reviewed_at" DATETIME NOT NULL,
    "duration_ms" INTEGER,
    "parameters" TEXT NOT NULL,
    "state_before" INTEGER NOT NULL,
    "state" INTEGER NOT NULL,
    "due" DATETIME NOT NULL,
    "stability" REAL NOT NULL,
    "difficulty" REAL NOT NULL,
    "scheduled_days" INTEGER NOT NULL,
    "learning_steps" INTEGER NOT NULL,
    CONSTRAINT "card_reviews_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "cards" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "cards_due_idx" ON "cards"("due");

-- CreateIndex
CREATE INDEX "cards_topic_idx" ON "cards"("topic");

-- CreateIndex
CREATE INDEX "cards_origin_id_idx" ON "cards"("origin_id");

-- CreateIndex
CREATE INDEX "card_reviews_card_id_reviewed_at_idx" ON "card_reviews"("card_id", "reviewed_at");

-- CreateIndex
CREATE INDEX "card_reviews_reviewed_at_idx" ON "card_reviews"("reviewed_at");
