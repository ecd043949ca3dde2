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

/** Everything stored, as one comparable value: every row of every learner table, and the session folders. */
export function storedState(dataDir: string): string {
  const tables = withDb(dataDir, (db) =>
    ["study_sessions", "parked_items", "topic_marks"].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()),
  );
  const sessionsDir = path.join(dataDir, "sessions");
  const folders = fs.existsSync(sessionsDir) ? fs.readdirSync(sessionsDir).sort() : [];
  return JSON.stringify({ tables, folders });
}

export function sessionRow(dataDir: string, id: string): Record<string, unknown> {
  return withDb(dataDir, (db) => db.prepare("SELECT * FROM study_sessions WHERE id = ?").get(id) as Record<string, unknown>);
}
