-- Flat in history size (issue 20): what the dashboard and its charts show, kept up to date as it
-- changes instead of read from every session and every mark on each request, and the indexes that
-- bound the other history reads to what they show.

-- Focus minutes per calendar day (the server's local days) of ended sessions: the 12-week heatmap and
-- the streak. Written by the session store as a session ends (server/sessions/study-days.ts); built
-- from the sessions in the app on first use, since the split into local days is the app's rule.
CREATE TABLE "study_day_totals" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "focus_ms" REAL NOT NULL DEFAULT 0
);

-- One row once study_day_totals is built: the time zone its days are in (built again when it changes).
CREATE TABLE "history_aggregates" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "time_zone" TEXT NOT NULL,
    "built_at" DATETIME NOT NULL
);

-- Topic marks counted per exact topic (the charts group topics without case or spaces in the app):
-- kept by the triggers below whoever writes a mark, like the search index. first_mark is the rowid of
-- the oldest mark with this topic, which names the group the way a scan of every mark did.
CREATE TABLE "topic_mark_tallies" (
    "topic" TEXT NOT NULL PRIMARY KEY,
    "first_mark" INTEGER NOT NULL,
    "marks" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "struggles" INTEGER NOT NULL DEFAULT 0,
    "learning" INTEGER NOT NULL DEFAULT 0,
    "insights" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "topic_marks_topic_idx" ON "topic_marks"("topic");
CREATE INDEX "topic_marks_created_at_idx" ON "topic_marks"("created_at");
CREATE INDEX "parked_items_created_at_idx" ON "parked_items"("created_at");
CREATE INDEX "study_sessions_topic_started_at_idx" ON "study_sessions"("topic", "started_at");

CREATE TRIGGER "topic_mark_tallies_ai" AFTER INSERT ON "topic_marks" BEGIN
  INSERT INTO "topic_mark_tallies"("topic", "first_mark", "marks", "wins", "struggles", "learning", "insights")
    VALUES (NEW."topic", NEW."rowid", 1, NEW."status" = 'win', NEW."status" = 'struggling', NEW."status" = 'learning', NEW."status" = 'insight')
    ON CONFLICT("topic") DO UPDATE SET
      "first_mark" = min("first_mark", excluded."first_mark"),
      "marks" = "marks" + 1,
      "wins" = "wins" + excluded."wins",
      "struggles" = "struggles" + excluded."struggles",
      "learning" = "learning" + excluded."learning",
      "insights" = "insights" + excluded."insights";
END;
CREATE TRIGGER "topic_mark_tallies_ad" AFTER DELETE ON "topic_marks" BEGIN
  UPDATE "topic_mark_tallies" SET
      "marks" = "marks" - 1,
      "wins" = "wins" - (OLD."status" = 'win'),
      "struggles" = "struggles" - (OLD."status" = 'struggling'),
      "learning" = "learning" - (OLD."status" = 'learning'),
      "insights" = "insights" - (OLD."status" = 'insight'),
      "first_mark" = coalesce((SELECT min("rowid") FROM "topic_marks" WHERE "topic" = OLD."topic"), "first_mark")
    WHERE "topic" = OLD."topic";
  DELETE FROM "topic_mark_tallies" WHERE "topic" = OLD."topic" AND "marks" <= 0;
END;
CREATE TRIGGER "topic_mark_tallies_au" AFTER UPDATE OF "topic", "status" ON "topic_marks" BEGIN
  UPDATE "topic_mark_tallies" SET
      "marks" = "marks" - 1,
      "wins" = "wins" - (OLD."status" = 'win'),
      "struggles" = "struggles" - (OLD."status" = 'struggling'),
      "learning" = "learning" - (OLD."status" = 'learning'),
      "insights" = "insights" - (OLD."status" = 'insight'),
      "first_mark" = coalesce((SELECT min("rowid") FROM "topic_marks" WHERE "topic" = OLD."topic"), "first_mark")
    WHERE "topic" = OLD."topic";
  DELETE FROM "topic_mark_tallies" WHERE "topic" = OLD."topic" AND "marks" <= 0;
  INSERT INTO "topic_mark_tallies"("topic", "first_mark", "marks", "wins", "struggles", "learning", "insights")
    VALUES (NEW."topic", NEW."rowid", 1, NEW."status" = 'win', NEW."status" = 'struggling', NEW."status" = 'learning', NEW."status" = 'insight')
    ON CONFLICT("topic") DO UPDATE SET
      "first_mark" = min("first_mark", excluded."first_mark"),
      "marks" = "marks" + 1,
      "wins" = "wins" + excluded."wins",
      "struggles" = "struggles" + excluded."struggles",
      "learning" = "learning" + excluded."learning",
      "insights" = "insights" + excluded."insights";
END;

-- The marks written before this migration.
INSERT INTO "topic_mark_tallies"("topic", "first_mark", "marks", "wins", "struggles", "learning", "insights")
  SELECT "topic", min("rowid"), count(*), sum("status" = 'win'), sum("status" = 'struggling'), sum("status" = 'learning'), sum("status" = 'insight')
  FROM "topic_marks" GROUP BY "topic";
