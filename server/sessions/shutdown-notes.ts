// The end a stopping server could not write. A SIGTERM while another program holds the database's
// write lock stops the agents anyway (within SHUTDOWN_BUDGET_MS), but the row still says live; the
// next start's verdict then finds its owner gone and would call it `server-stopped` (a crash), which
// changes what the learner is told. So the stopping server leaves a small note per session in the data
// directory, and the reader that ends the orphan takes its reason and time from it (issue 42).
//
// Only a reader on the same data directory sees a note: a server on another host of a shared
// PostgreSQL ends such a row as `server-stopped` (docs/architecture.md, "Durable transitions").
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { LiveSession } from "./live-registry.ts";

export const SHUTDOWN_NOTES_DIR = "pending-ends";
/** A note is a few hundred bytes; anything larger is not one of ours and is not read. */
const NOTE_MAX_BYTES = 4 * 1024;

const NoteSchema = z
  .object({
    sessionId: z.string().uuid(),
    /** The owner that wrote it: a note is applied only to the row that owner still holds. */
    ownerInstance: z.string().min(1).max(100),
    ownerGeneration: z.number().int().min(0),
    reason: z.string().regex(/^[a-z-]{1,40}$/),
    endedAt: z.string().datetime(),
    exitCode: z.number().int().nullable(),
    detail: z.string().max(1000).nullable(),
  })
  .strict();

export type ShutdownNote = z.infer<typeof NoteSchema>;

/** The row fields a note is matched against. */
export interface NotedRow {
  readonly id: string;
  readonly ownerInstance: string | null;
  readonly ownerGeneration: number;
  readonly startedAt: Date;
}

/** What the reader writes for an orphan: the note's end, or the verdict's. Pure. */
export function endFromNote(
  row: NotedRow,
  note: ShutdownNote | null,
  verdict: { reason: string; endedAt: Date; detail: string | null },
): { reason: string; endedAt: Date; detail: string | null } {
  if (!note || note.sessionId !== row.id || note.ownerInstance !== row.ownerInstance || note.ownerGeneration !== row.ownerGeneration) {
    return verdict;
  }
  // The moment the server stopped it (later than the last heartbeat the verdict would take), never before its start.
  const endedAt = new Date(Math.max(Date.parse(note.endedAt), row.startedAt.getTime()));
  return { reason: note.reason, endedAt, detail: note.detail };
}

/** The note for a session this server could not end in the database before it stopped. */
export function shutdownNoteOf(live: LiveSession, ownerInstance: string, now: Date): ShutdownNote {
  const end = live.pendingEnd;
  return {
    sessionId: live.id,
    ownerInstance,
    ownerGeneration: live.generation,
    reason: end?.reason ?? "server-shutdown",
    endedAt: (end?.endedAt ?? now).toISOString(),
    exitCode: end?.exitCode ?? null,
    detail: end?.detail?.slice(0, 1000) ?? null,
  };
}

function fileOf(dataDir: string, sessionId: string): string | null {
  return /^[0-9a-f-]{36}$/.test(sessionId) ? path.join(dataDir, SHUTDOWN_NOTES_DIR, `${sessionId}.json`) : null;
}

/** Leaves the note (0600, written whole then renamed into place); never throws: the server is stopping. */
export function leaveShutdownNote(dataDir: string, note: ShutdownNote, log: (line: string) => void): void {
  const file = fileOf(dataDir, note.sessionId);
  if (!file) return;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(note), { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch (error) {
    log(`Session ${note.sessionId}: could not leave its end for the next start (${String(error)}); it will read as server-stopped.`);
  }
}

/** The note for a session, or null: missing, not a plain file (a symlink is not followed), too large, or not valid. */
export function readShutdownNote(dataDir: string, sessionId: string): ShutdownNote | null {
  const file = fileOf(dataDir, sessionId);
  if (!file) return null;
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > NOTE_MAX_BYTES) return null;
    const parsed = NoteSchema.safeParse(JSON.parse(fs.readFileSync(fd, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The row is ended now (by this note or otherwise): its note has done its work. */
export function dropShutdownNote(dataDir: string, sessionId: string): void {
  const file = fileOf(dataDir, sessionId);
  if (file) fs.rmSync(file, { force: true });
}
