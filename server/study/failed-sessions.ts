// Sessions that failed before any studying happened (the agent would not start, exited at once, was
// never opened): kept in the database, but left out of the dashboard's history unless asked for.
import type { SessionView } from "../sessions/session-view.ts";

type Seen = Pick<SessionView, "status" | "endReason" | "durationMinutes" | "winCount" | "struggleCount" | "summary">;

export function isFailedEmptySession(s: Seen): boolean {
  return (
    s.status === "ended" &&
    s.endReason !== null &&
    s.endReason !== "ended-by-learner" &&
    (s.durationMinutes ?? 0) === 0 &&
    s.winCount === 0 &&
    s.struggleCount === 0 &&
    (s.summary?.parked.length ?? 0) === 0
  );
}
