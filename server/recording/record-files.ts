// Where a session's record lives: its recording (session.cast) and the transcript derived from it
// (transcript.jsonl, a cache that says which recording size it was made from), in the session folder.
import fs from "node:fs";
import path from "node:path";
import { sessionsDir } from "../config/paths.ts";
import type { TranscriptSegment } from "./transcript.ts";

export const CAST_FILE = "session.cast";
export const TRANSCRIPT_FILE = "transcript.jsonl";

export function sessionDir(dataDir: string, sessionId: string): string {
  return path.join(sessionsDir(dataDir), sessionId);
}

/** The path stored on the row: relative to the data directory, so a moved data directory still works. */
export function recordingPathFor(sessionId: string): string {
  return path.join("sessions", sessionId, CAST_FILE);
}

/** The recording's absolute path from the row's value; null when none or when it leaves the data directory. */
export function resolveRecording(dataDir: string, stored: string | null | undefined): string | null {
  if (!stored) return null;
  const file = path.resolve(dataDir, stored);
  return file.startsWith(path.resolve(dataDir) + path.sep) ? file : null;
}

/**
 * The length of a file's whole lines, up to and including its last newline: what may be served of a
 * recording still being written (or cut by a crash), read from its end without loading it.
 */
export async function wholeLinesLength(file: string): Promise<number> {
  const handle = await fs.promises.open(file, "r");
  try {
    const tail = Buffer.allocUnsafe(64 * 1024);
    for (let end = (await handle.stat()).size; end > 0;) {
      const start = Math.max(0, end - tail.length);
      const { bytesRead } = await handle.read(tail, 0, end - start, start);
      const newline = tail.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline !== -1) return start + newline + 1;
      end = start;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

export function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Reads bytes [from, to) of a file as text. */
export function readRange(file: string, from: number, to: number): Buffer {
  if (to <= from) return Buffer.alloc(0);
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(to - from);
    const read = fs.readSync(fd, buffer, 0, buffer.length, from);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

type CacheLine = { segment: TranscriptSegment } | { complete: number };

function cacheText(segments: readonly TranscriptSegment[], complete?: number): string {
  const lines: CacheLine[] = segments.map((segment) => ({ segment }));
  if (complete !== undefined) lines.push({ complete });
  return lines.length ? lines.map((l) => JSON.stringify(l)).join("\n") + "\n" : "";
}

/** Appends segments to the transcript cache (as the session runs); `complete` closes it for a recording size. */
export function appendTranscript(dir: string, segments: readonly TranscriptSegment[], complete?: number): void {
  const text = cacheText(segments, complete);
  if (text) fs.appendFileSync(path.join(dir, TRANSCRIPT_FILE), text, { mode: 0o600 });
}

/** Replaces the cache with a whole transcript (written aside, then renamed over). */
export function rewriteTranscript(dir: string, segments: readonly TranscriptSegment[], complete: number): void {
  const file = path.join(dir, TRANSCRIPT_FILE);
  fs.writeFileSync(`${file}.tmp`, cacheText(segments, complete), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}

/** The cached transcript if it was completed for a recording of `castBytes`; null otherwise. */
export function readTranscriptCache(dir: string, castBytes: number): TranscriptSegment[] | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, TRANSCRIPT_FILE), "utf8");
  } catch {
    return null;
  }
  const segments: TranscriptSegment[] = [];
  let complete: number | undefined;
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const parsed = JSON.parse(line) as CacheLine;
      if ("segment" in parsed) segments.push(parsed.segment);
      else complete = parsed.complete;
    } catch {
      return null;
    }
  }
  return complete === castBytes ? segments : null;
}
