// Reads the server's SQLite file directly, so a test can prove what was (or was not) written.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";

export function withDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, "studyloop.db"), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * What a live session's server writes of its own accord, whatever a request does: the keeper's heartbeat
 * and transcript checkpoints, the recorder's size. A test that compares the state around a request while a
 * session is live leaves them out.
 */
export const KEEPER_COLUMNS = ["heartbeat_at", "transcript", "transcript_at", "recording_bytes"] as const;

/**
 * Everything stored, as one comparable value: every row of every learner table, and the session folders
 * (less the `ignore`d columns).
 */
export function storedState(dataDir: string, ignore: readonly string[] = []): string {
  const tables = withDb(dataDir, (db) =>
    ["study_sessions", "parked_items", "topic_marks"].map((t) =>
      (db.prepare(`SELECT * FROM ${t} ORDER BY id`).all() as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !ignore.includes(column))),
      ),
    ),
  );
  const sessionsDir = path.join(dataDir, "sessions");
  const folders = fs.existsSync(sessionsDir) ? fs.readdirSync(sessionsDir).sort() : [];
  return JSON.stringify({ tables, folders });
}

export function sessionRow(dataDir: string, id: string): Record<string, unknown> {
  return withDb(dataDir, (db) => db.prepare("SELECT * FROM study_sessions WHERE id = ?").get(id) as Record<string, unknown>);
}
