-- The session lifecycle (issue 14): status may now be "ending" (written before the agent is
-- stopped; end_reason holds the pending reason until the row is ended); a session can continue an
-- earlier one; the agent's last output lines are kept when it exits or fails to start.
ALTER TABLE "study_sessions" ADD COLUMN "continued_from_id" TEXT;
ALTER TABLE "study_sessions" ADD COLUMN "end_output" TEXT;
