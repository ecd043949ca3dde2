// Reads what the markers are derived from (study-markers.ts): a session's marks, parked thoughts,
// pause and break nudges, as its rows say now. Shared by the web server's LearningRecord and a CLI
// session's pane recorder, which both compare one reading with the last.
import type { Db } from "../db/client.ts";
import type { StudyFacts } from "./study-markers.ts";

export async function readStudyFacts(db: Db, sessionId: string): Promise<StudyFacts> {
  const [row, marks, parked] = await Promise.all([
    db.studySession.findUnique({ where: { id: sessionId }, select: { pausedAt: true, nudgesShown: true } }),
    db.topicMark.findMany({ where: { sessionId }, select: { id: true, topic: true, status: true }, orderBy: { createdAt: "asc" } }),
    db.parkedItem.findMany({ where: { sessionId }, select: { id: true, text: true }, orderBy: { createdAt: "asc" } }),
  ]);
  return { marks, parked, paused: Boolean(row?.pausedAt), nudges: nudgeCount(row?.nudgesShown) };
}

function nudgeCount(stored: string | null | undefined): number {
  try {
    const list = JSON.parse(stored ?? "[]") as unknown;
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}
