-- The learning record (issue 17): each terminal session's recording (an asciicast v2 file in its
-- session folder, referenced from the row) and one full-text index over everything a learner can
-- search: transcripts, chat messages, summaries, topic marks and parked thoughts.

-- AlterTable
ALTER TABLE "study_sessions" ADD COLUMN "recording_path" TEXT;
ALTER TABLE "study_sessions" ADD COLUMN "recording_bytes" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "search_docs" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "session_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_id" TEXT,
    "at_ms" INTEGER,
    "text" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "search_docs_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "search_docs_session_id_kind_idx" ON "search_docs"("session_id", "kind");
CREATE INDEX "search_docs_source_id_idx" ON "search_docs"("source_id");

-- The full-text index (not in schema.prisma: Prisma has no virtual tables; prisma/schema-drift.test.ts
-- checks it by name). External content: the text lives once, in search_docs; the trigram tokenizer
-- makes every search a literal, case-insensitive substring match ("%" and "_" are just characters).
CREATE VIRTUAL TABLE "search_fts" USING fts5("text", content = 'search_docs', content_rowid = 'id', tokenize = 'trigram');

CREATE TRIGGER "search_docs_ai" AFTER INSERT ON "search_docs" BEGIN
  INSERT INTO "search_fts"(rowid, "text") VALUES (NEW."id", NEW."text");
END;
CREATE TRIGGER "search_docs_ad" AFTER DELETE ON "search_docs" BEGIN
  INSERT INTO "search_fts"("search_fts", rowid, "text") VALUES ('delete', OLD."id", OLD."text");
END;
CREATE TRIGGER "search_docs_au" AFTER UPDATE ON "search_docs" BEGIN
  INSERT INTO "search_fts"("search_fts", rowid, "text") VALUES ('delete', OLD."id", OLD."text");
  INSERT INTO "search_fts"(rowid, "text") VALUES (NEW."id", NEW."text");
END;

-- What the learner writes is indexed by the database as it is written, whoever writes it (the server,
-- the CLI in a tmux session, Prisma Studio). Transcripts and chat messages are indexed by the app.
CREATE TRIGGER "search_topic_ai" AFTER INSERT ON "study_sessions" BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "at_ms", "text") VALUES (NEW."id", 'topic', 0, NEW."topic");
END;
CREATE TRIGGER "search_topic_au" AFTER UPDATE OF "topic" ON "study_sessions" BEGIN
  UPDATE "search_docs" SET "text" = NEW."topic" WHERE "session_id" = NEW."id" AND "kind" = 'topic';
END;
-- The summary is stored as JSON: only its text values are indexed (a search for "wins" must not
-- match every summary's key).
CREATE TRIGGER "search_summary_au" AFTER UPDATE OF "summary" ON "study_sessions" BEGIN
  DELETE FROM "search_docs" WHERE "session_id" = NEW."id" AND "kind" = 'summary';
  INSERT INTO "search_docs"("session_id", "kind", "text")
    SELECT NEW."id", 'summary', group_concat("value", ' · ') FROM json_tree(CASE WHEN json_valid(NEW."summary") THEN NEW."summary" ELSE '{}' END)
    WHERE "type" = 'text' HAVING count(*) > 0;
END;
CREATE TRIGGER "search_parked_ai" AFTER INSERT ON "parked_items" WHEN NEW."session_id" IS NOT NULL BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at") VALUES (NEW."session_id", 'parked', NEW."id", NEW."text", NEW."created_at");
END;
CREATE TRIGGER "search_parked_ad" AFTER DELETE ON "parked_items" BEGIN
  DELETE FROM "search_docs" WHERE "source_id" = OLD."id";
END;
CREATE TRIGGER "search_mark_ai" AFTER INSERT ON "topic_marks" BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at")
    VALUES (NEW."session_id", 'mark', NEW."id", NEW."status" || ': ' || NEW."topic" || CASE WHEN NEW."note" IS NULL OR NEW."note" = '' THEN '' ELSE ' · ' || NEW."note" END, NEW."created_at");
END;
CREATE TRIGGER "search_mark_ad" AFTER DELETE ON "topic_marks" BEGIN
  DELETE FROM "search_docs" WHERE "source_id" = OLD."id";
END;

-- Sessions from before this migration: their topics, summaries, marks and parked thoughts.
INSERT INTO "search_docs"("session_id", "kind", "at_ms", "text") SELECT "id", 'topic', 0, "topic" FROM "study_sessions";
INSERT INTO "search_docs"("session_id", "kind", "text")
  SELECT s."id", 'summary', (SELECT group_concat("value", ' · ') FROM json_tree(s."summary") WHERE "type" = 'text')
  FROM "study_sessions" s WHERE json_valid(s."summary") AND EXISTS (SELECT 1 FROM json_tree(s."summary") WHERE "type" = 'text');
INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at") SELECT "session_id", 'parked', "id", "text", "created_at" FROM "parked_items" WHERE "session_id" IS NOT NULL;
INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at")
  SELECT "session_id", 'mark', "id", "status" || ': ' || "topic" || CASE WHEN "note" IS NULL OR "note" = '' THEN '' ELSE ' · ' || "note" END, "created_at" FROM "topic_marks";
