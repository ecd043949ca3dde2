-- The topic page's wins and struggles flat in history size (issue 20): a topic's marks are its own
-- (topic_mark_tallies) and those its sessions made on other topics, which were counted on every
-- request from every mark of the topic's sessions (5,000 sessions, 12,000 marks at 50,000). Kept here
-- per (the session's topic, status) by the triggers below, whoever writes a mark or a session. The
-- weeks shown and the newest struggles read the same marks: each mark carries its session's topic
-- (session_topic, kept by the triggers below too), so they are read off one index in the order shown.
ALTER TABLE "topic_marks" ADD COLUMN "session_topic" TEXT;
UPDATE "topic_marks" SET "session_topic" = (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = "topic_marks"."session_id");
CREATE INDEX "topic_marks_session_topic_status_created_at_topic_idx" ON "topic_marks"("session_topic", "status", "created_at", "topic");
CREATE TRIGGER "topic_marks_session_topic_ai" AFTER INSERT ON "topic_marks" BEGIN
  UPDATE "topic_marks" SET "session_topic" = (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = NEW."session_id") WHERE "id" = NEW."id";
END;
CREATE TRIGGER "topic_marks_session_topic_au" AFTER UPDATE OF "session_id", "session_topic" ON "topic_marks" BEGIN
  UPDATE "topic_marks" SET "session_topic" = (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = NEW."session_id")
    WHERE "id" = NEW."id" AND "session_topic" IS NOT (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = NEW."session_id");
END;
CREATE TRIGGER "topic_marks_session_topic_su" AFTER UPDATE OF "topic" ON "study_sessions" BEGIN
  UPDATE "topic_marks" SET "session_topic" = NEW."topic" WHERE "session_id" = NEW."id";
END;

CREATE TABLE "session_topic_mark_tallies" (
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "marks" INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY ("topic", "status")
);

CREATE TRIGGER "session_topic_mark_tallies_ai" AFTER INSERT ON "topic_marks" BEGIN
  INSERT INTO "session_topic_mark_tallies"("topic", "status", "marks")
    SELECT s."topic", NEW."status", 1 FROM "study_sessions" s WHERE s."id" = NEW."session_id" AND s."topic" <> NEW."topic"
    ON CONFLICT("topic", "status") DO UPDATE SET "marks" = "marks" + 1;
END;
CREATE TRIGGER "session_topic_mark_tallies_ad" AFTER DELETE ON "topic_marks" BEGIN
  UPDATE "session_topic_mark_tallies" SET "marks" = "marks" - 1
    WHERE "status" = OLD."status"
      AND "topic" = (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = OLD."session_id" AND s."topic" <> OLD."topic");
  DELETE FROM "session_topic_mark_tallies" WHERE "marks" <= 0;
END;
CREATE TRIGGER "session_topic_mark_tallies_au" AFTER UPDATE OF "topic", "status", "session_id" ON "topic_marks" BEGIN
  UPDATE "session_topic_mark_tallies" SET "marks" = "marks" - 1
    WHERE "status" = OLD."status"
      AND "topic" = (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = OLD."session_id" AND s."topic" <> OLD."topic");
  DELETE FROM "session_topic_mark_tallies" WHERE "marks" <= 0;
  INSERT INTO "session_topic_mark_tallies"("topic", "status", "marks")
    SELECT s."topic", NEW."status", 1 FROM "study_sessions" s WHERE s."id" = NEW."session_id" AND s."topic" <> NEW."topic"
    ON CONFLICT("topic", "status") DO UPDATE SET "marks" = "marks" + 1;
END;
-- A session's marks leave with it: its cascade deletes them after the session's row is gone, when the
-- marks' trigger can no longer find the session's topic, so they are taken out here first.
CREATE TRIGGER "session_topic_mark_tallies_sbd" BEFORE DELETE ON "study_sessions" BEGIN
  UPDATE "session_topic_mark_tallies" SET "marks" = "marks" -
      (SELECT count(*) FROM "topic_marks" m WHERE m."session_id" = OLD."id" AND m."status" = "session_topic_mark_tallies"."status" AND m."topic" <> OLD."topic")
    WHERE "topic" = OLD."topic";
  DELETE FROM "session_topic_mark_tallies" WHERE "marks" <= 0;
END;
-- The app never changes a session's topic; whatever does moves its marks to the new topic's tally.
CREATE TRIGGER "session_topic_mark_tallies_su" AFTER UPDATE OF "topic" ON "study_sessions" WHEN OLD."topic" IS NOT NEW."topic" BEGIN
  UPDATE "session_topic_mark_tallies" SET "marks" = "marks" -
      (SELECT count(*) FROM "topic_marks" m WHERE m."session_id" = OLD."id" AND m."status" = "session_topic_mark_tallies"."status" AND m."topic" <> OLD."topic")
    WHERE "topic" = OLD."topic";
  DELETE FROM "session_topic_mark_tallies" WHERE "marks" <= 0;
  INSERT INTO "session_topic_mark_tallies"("topic", "status", "marks")
    SELECT NEW."topic", m."status", count(*) FROM "topic_marks" m WHERE m."session_id" = NEW."id" AND m."topic" <> NEW."topic" GROUP BY m."status"
    ON CONFLICT("topic", "status") DO UPDATE SET "marks" = "marks" + excluded."marks";
END;

-- The marks written before this migration.
INSERT INTO "session_topic_mark_tallies"("topic", "status", "marks")
  SELECT s."topic", m."status", count(*) FROM "topic_marks" m JOIN "study_sessions" s ON s."id" = m."session_id"
  WHERE s."topic" <> m."topic" GROUP BY s."topic", m."status";
