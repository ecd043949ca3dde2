-- PostgreSQL's side of what SQLite does with FTS5 and triggers (prisma/migrations/
-- 20261201120000_learning_record and 20261202100000_history_aggregates): the search index over
-- search_docs, the triggers that index what a learner writes, and the triggers that keep the marks
-- counted per topic. Prisma models none of it.

-- The search index: trigrams (pg_trgm ships with PostgreSQL; a trusted extension, so the database's
-- owner may create it). A word of three characters or more is found as a substring, case-insensitively,
-- through this index: the same literal matching as SQLite's FTS5 trigram tokenizer.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "search_docs_text_trgm_idx" ON "search_docs" USING gin ("text" gin_trgm_ops);

-- The summary is stored as JSON: only its text values are indexed (a search for "wins" must not match
-- every summary's key). NULL when there is none or it is not JSON.
CREATE FUNCTION "studyloop_summary_text"(summary TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  joined TEXT;
BEGIN
  IF summary IS NULL THEN RETURN NULL; END IF;
  SELECT string_agg(v #>> '{}', ' · ') INTO joined
    FROM jsonb_path_query(summary::jsonb, 'strict $.** ? (@.type() == "string")') AS v;
  RETURN joined;
EXCEPTION WHEN others THEN
  RETURN NULL;
END;
$$;

CREATE FUNCTION "search_topic_ai"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "at_ms", "text") VALUES (NEW."id", 'topic', 0, NEW."topic");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_topic_ai" AFTER INSERT ON "study_sessions" FOR EACH ROW EXECUTE FUNCTION "search_topic_ai"();

CREATE FUNCTION "search_topic_au"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "search_docs" SET "text" = NEW."topic" WHERE "session_id" = NEW."id" AND "kind" = 'topic';
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_topic_au" AFTER UPDATE OF "topic" ON "study_sessions" FOR EACH ROW EXECUTE FUNCTION "search_topic_au"();

CREATE FUNCTION "search_summary_au"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  joined TEXT := "studyloop_summary_text"(NEW."summary");
BEGIN
  DELETE FROM "search_docs" WHERE "session_id" = NEW."id" AND "kind" = 'summary';
  IF joined IS NOT NULL THEN
    INSERT INTO "search_docs"("session_id", "kind", "text") VALUES (NEW."id", 'summary', joined);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_summary_au" AFTER UPDATE OF "summary" ON "study_sessions" FOR EACH ROW EXECUTE FUNCTION "search_summary_au"();

CREATE FUNCTION "search_parked_ai"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at") VALUES (NEW."session_id", 'parked', NEW."id", NEW."text", NEW."created_at");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_parked_ai" AFTER INSERT ON "parked_items" FOR EACH ROW WHEN (NEW."session_id" IS NOT NULL) EXECUTE FUNCTION "search_parked_ai"();

-- Shared by parked_items and topic_marks: their documents carry the row's id as source_id.
CREATE FUNCTION "search_source_ad"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "search_docs" WHERE "source_id" = OLD."id";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_parked_ad" AFTER DELETE ON "parked_items" FOR EACH ROW EXECUTE FUNCTION "search_source_ad"();

CREATE FUNCTION "search_mark_ai"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at")
    VALUES (NEW."session_id", 'mark', NEW."id", NEW."status" || ': ' || NEW."topic" || CASE WHEN NEW."note" IS NULL OR NEW."note" = '' THEN '' ELSE ' · ' || NEW."note" END, NEW."created_at");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "search_mark_ai" AFTER INSERT ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "search_mark_ai"();
CREATE TRIGGER "search_mark_ad" AFTER DELETE ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "search_source_ad"();

-- Marks counted per exact topic. PostgreSQL has no rowid: a mark's place in the order marks were
-- written is the id of its search document (search_docs.id is a serial, and search_mark_ai, which
-- runs before the topic_mark_tallies_* triggers by name, writes it), so first_mark names a group of
-- topics after its oldest mark exactly as SQLite's min(rowid) does.
CREATE FUNCTION "studyloop_topic_first_mark"(of_topic TEXT) RETURNS INTEGER LANGUAGE sql STABLE AS $$
  SELECT min(d."id") FROM "topic_marks" m JOIN "search_docs" d ON d."source_id" = m."id" AND d."kind" = 'mark' WHERE m."topic" = of_topic
$$;

CREATE FUNCTION "topic_mark_tally_add"(mark_id TEXT, of_topic TEXT, status TEXT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "topic_mark_tallies" AS t ("topic", "first_mark", "marks", "wins", "struggles", "learning", "insights")
    VALUES (of_topic, coalesce((SELECT min("id") FROM "search_docs" WHERE "source_id" = mark_id AND "kind" = 'mark'), 2147483647), 1,
            (status = 'win')::int, (status = 'struggling')::int, (status = 'learning')::int, (status = 'insight')::int)
    ON CONFLICT ("topic") DO UPDATE SET
      "first_mark" = least(t."first_mark", excluded."first_mark"),
      "marks" = t."marks" + 1,
      "wins" = t."wins" + excluded."wins",
      "struggles" = t."struggles" + excluded."struggles",
      "learning" = t."learning" + excluded."learning",
      "insights" = t."insights" + excluded."insights";
$$;

CREATE FUNCTION "topic_mark_tally_remove"(of_topic TEXT, status TEXT) RETURNS void LANGUAGE sql AS $$
  UPDATE "topic_mark_tallies" SET
      "marks" = "marks" - 1,
      "wins" = "wins" - (status = 'win')::int,
      "struggles" = "struggles" - (status = 'struggling')::int,
      "learning" = "learning" - (status = 'learning')::int,
      "insights" = "insights" - (status = 'insight')::int,
      "first_mark" = coalesce("studyloop_topic_first_mark"(of_topic), "first_mark")
    WHERE "topic" = of_topic;
  DELETE FROM "topic_mark_tallies" WHERE "topic" = of_topic AND "marks" <= 0;
$$;

CREATE FUNCTION "topic_mark_tallies_ai"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "topic_mark_tally_add"(NEW."id", NEW."topic", NEW."status");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "topic_mark_tallies_ai" AFTER INSERT ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "topic_mark_tallies_ai"();

CREATE FUNCTION "topic_mark_tallies_ad"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "topic_mark_tally_remove"(OLD."topic", OLD."status");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "topic_mark_tallies_ad" AFTER DELETE ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "topic_mark_tallies_ad"();

CREATE FUNCTION "topic_mark_tallies_au"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "topic_mark_tally_remove"(OLD."topic", OLD."status");
  PERFORM "topic_mark_tally_add"(NEW."id", NEW."topic", NEW."status");
  RETURN NULL;
END;
$$;
CREATE TRIGGER "topic_mark_tallies_au" AFTER UPDATE OF "topic", "status" ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "topic_mark_tallies_au"();

-- Rows written before this migration (a database moved from an older StudyLoop is migrated in one go).
INSERT INTO "search_docs"("session_id", "kind", "at_ms", "text") SELECT "id", 'topic', 0, "topic" FROM "study_sessions";
INSERT INTO "search_docs"("session_id", "kind", "text")
  SELECT "id", 'summary', "studyloop_summary_text"("summary") FROM "study_sessions" WHERE "studyloop_summary_text"("summary") IS NOT NULL;
INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at") SELECT "session_id", 'parked', "id", "text", "created_at" FROM "parked_items" WHERE "session_id" IS NOT NULL;
INSERT INTO "search_docs"("session_id", "kind", "source_id", "text", "created_at")
  SELECT "session_id", 'mark', "id", "status" || ': ' || "topic" || CASE WHEN "note" IS NULL OR "note" = '' THEN '' ELSE ' · ' || "note" END, "created_at" FROM "topic_marks";
INSERT INTO "topic_mark_tallies"("topic", "first_mark", "marks", "wins", "struggles", "learning", "insights")
  SELECT "topic", coalesce("studyloop_topic_first_mark"("topic"), 2147483647), count(*), count(*) FILTER (WHERE "status" = 'win'), count(*) FILTER (WHERE "status" = 'struggling'),
         count(*) FILTER (WHERE "status" = 'learning'), count(*) FILTER (WHERE "status" = 'insight')
  FROM "topic_marks" GROUP BY "topic";
