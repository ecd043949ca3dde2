-- The topic page's wins and struggles flat in history size (issue 20): a topic's marks are its own
-- (topic_mark_tallies) and those its sessions made on other topics, which were counted on every
-- request from every mark of the topic's sessions (5,000 sessions, 12,000 marks at 50,000). Kept here
-- per (the session's topic, status) by the triggers below, whoever writes a mark or a session. The
-- weeks shown and the newest struggles read the same marks: each mark carries its session's topic
-- (session_topic, kept by the triggers below too), so they are read off one index in the order shown.
ALTER TABLE "topic_marks" ADD COLUMN "session_topic" TEXT;
UPDATE "topic_marks" m SET "session_topic" = s."topic" FROM "study_sessions" s WHERE s."id" = m."session_id";
CREATE INDEX "topic_marks_session_topic_status_created_at_topic_idx" ON "topic_marks"("session_topic", "status", "created_at", "topic");
CREATE FUNCTION "topic_marks_session_topic"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."session_topic" := (SELECT s."topic" FROM "study_sessions" s WHERE s."id" = NEW."session_id");
  RETURN NEW;
END;
$$;
CREATE TRIGGER "topic_marks_session_topic_biu" BEFORE INSERT OR UPDATE OF "session_id", "session_topic" ON "topic_marks" FOR EACH ROW EXECUTE FUNCTION "topic_marks_session_topic"();
CREATE FUNCTION "topic_marks_session_topic_su"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "topic_marks" SET "session_topic" = NEW."topic" WHERE "session_id" = NEW."id";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "topic_marks_session_topic_su" AFTER UPDATE OF "topic" ON "study_sessions" FOR EACH ROW
  WHEN (OLD."topic" IS DISTINCT FROM NEW."topic") EXECUTE FUNCTION "topic_marks_session_topic_su"();

CREATE TABLE "session_topic_mark_tallies" (
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "marks" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "session_topic_mark_tallies_pkey" PRIMARY KEY ("topic", "status")
);

-- Adds `delta` marks of `of_status` to the tally of sessions on `of_topic` (a negative delta takes
-- them out; a tally at zero is dropped). PL/pgSQL, whose statements' plans are kept between calls: as
-- an SQL function it was planned again for every mark (the bench's seed of 117,647 marks took 3.5x).
CREATE FUNCTION "session_topic_mark_tally_move"(of_topic TEXT, of_status TEXT, delta BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF of_topic IS NULL OR delta = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "session_topic_mark_tallies" AS t ("topic", "status", "marks") VALUES (of_topic, of_status, delta)
    ON CONFLICT ("topic", "status") DO UPDATE SET "marks" = t."marks" + excluded."marks";
  IF delta < 0 THEN
    DELETE FROM "session_topic_mark_tallies" WHERE "topic" = of_topic AND "status" = of_status AND "marks" <= 0;
  END IF;
END;
$$;

-- A mark written, taken back or changed: out of its old session topic's tally, into its new one's
-- (counted only when the mark's topic is not its session's; NEW.session_topic was set before the write).
CREATE FUNCTION "session_topic_mark_tallies_m"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_topic TEXT;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT s."topic" INTO old_topic FROM "study_sessions" s WHERE s."id" = OLD."session_id" AND s."topic" <> OLD."topic";
    PERFORM "session_topic_mark_tally_move"(old_topic, OLD."status", -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "session_topic_mark_tally_move"(CASE WHEN NEW."session_topic" <> NEW."topic" THEN NEW."session_topic" END, NEW."status", 1);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "session_topic_mark_tallies_m" AFTER INSERT OR DELETE OR UPDATE OF "topic", "status", "session_id" ON "topic_marks"
  FOR EACH ROW EXECUTE FUNCTION "session_topic_mark_tallies_m"();

-- A session's marks leave with it: its cascade deletes them after the session's row is gone, when the
-- marks' trigger can no longer find the session's topic, so they are taken out here first. A change of
-- a session's topic (the app never makes one) moves its marks to the new topic's tally.
CREATE FUNCTION "session_topic_mark_tallies_s"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  FOR r IN SELECT m."status", count(*) AS n FROM "topic_marks" m WHERE m."session_id" = OLD."id" AND m."topic" <> OLD."topic" GROUP BY m."status" LOOP
    PERFORM "session_topic_mark_tally_move"(OLD."topic", r."status", -r.n);
  END LOOP;
  IF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT m."status", count(*) AS n FROM "topic_marks" m WHERE m."session_id" = NEW."id" AND m."topic" <> NEW."topic" GROUP BY m."status" LOOP
      PERFORM "session_topic_mark_tally_move"(NEW."topic", r."status", r.n);
    END LOOP;
    RETURN NULL;
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER "session_topic_mark_tallies_sbd" BEFORE DELETE ON "study_sessions" FOR EACH ROW EXECUTE FUNCTION "session_topic_mark_tallies_s"();
CREATE TRIGGER "session_topic_mark_tallies_su" AFTER UPDATE OF "topic" ON "study_sessions" FOR EACH ROW
  WHEN (OLD."topic" IS DISTINCT FROM NEW."topic") EXECUTE FUNCTION "session_topic_mark_tallies_s"();

-- The marks written before this migration.
INSERT INTO "session_topic_mark_tallies"("topic", "status", "marks")
  SELECT s."topic", m."status", count(*) FROM "topic_marks" m JOIN "study_sessions" s ON s."id" = m."session_id"
  WHERE s."topic" <> m."topic" GROUP BY s."topic", m."status";
