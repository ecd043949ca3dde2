-- The topic page and the parking lot bounded by their indexes (issue 20, "flat in history size"): a
-- topic's wins and struggles are counted, and its newest struggles and recent weeks read, from the
-- index alone (the table's rows were read one by one, 12,000 for a topic at 50,000 sessions); the
-- pending items come newest first off the index instead of sorted from every pending item.
CREATE INDEX "topic_marks_topic_status_created_at_idx" ON "topic_marks"("topic", "status", "created_at");
CREATE INDEX "topic_marks_session_id_status_created_at_topic_idx" ON "topic_marks"("session_id", "status", "created_at", "topic");
CREATE INDEX "study_sessions_topic_id_idx" ON "study_sessions"("topic", "id");
CREATE INDEX "parked_items_status_created_at_idx" ON "parked_items"("status", "created_at");
