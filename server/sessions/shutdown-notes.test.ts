// The end a stopping server left for the next start: applied only to the row its owner still holds,
// read only as a small plain file of ours.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  SHUTDOWN_NOTES_DIR,
  dropShutdownNote,
  endFromNote,
  leaveShutdownNote,
  readShutdownNote,
  type ShutdownNote,
} from "./shutdown-notes.ts";

const ID = "0b5c1a52-5f0e-4bd5-9d49-a8c0e8b1d6f3";
const row = { id: ID, ownerInstance: "inst-1", ownerGeneration: 3, startedAt: new Date("2026-12-06T10:00:00Z") };
const note: ShutdownNote = {
  sessionId: ID,
  ownerInstance: "inst-1",
  ownerGeneration: 3,
  reason: "server-shutdown",
  endedAt: "2026-12-06T10:30:00.000Z",
  exitCode: null,
  detail: null,
};
const verdict = { reason: "server-stopped", endedAt: new Date("2026-12-06T10:29:58Z"), detail: "its process has exited" };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-notes-"));
  dirs.push(d);
  return d;
};

describe("endFromNote", () => {
  it.each([
    ["no note", null, verdict],
    ["the note of its owner", note, { reason: "server-shutdown", endedAt: new Date(note.endedAt), detail: null }],
    ["another owner's note (taken over since)", { ...note, ownerInstance: "inst-2" }, verdict],
    ["an older generation's note", { ...note, ownerGeneration: 2 }, verdict],
    ["another session's note", { ...note, sessionId: "11111111-2222-4333-8444-555555555555" }, verdict],
    [
      "a note dated before the start",
      { ...note, endedAt: "2026-12-06T09:00:00.000Z" },
      { reason: "server-shutdown", endedAt: row.startedAt, detail: null },
    ],
  ])("%s", (_name, given, expected) => {
    expect(endFromNote(row, given, verdict)).toEqual(expected);
  });
});

describe("the note's file", () => {
  it("is written 0600 and read back, then dropped", () => {
    const dir = tempDir();
    leaveShutdownNote(dir, note, () => undefined);
    const file = path.join(dir, SHUTDOWN_NOTES_DIR, `${ID}.json`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readShutdownNote(dir, ID)).toEqual(note);
    dropShutdownNote(dir, ID);
    expect(readShutdownNote(dir, ID)).toBeNull();
  });

  it.each([
    [
      "a symlink",
      (file: string, dir: string) => (
        fs.writeFileSync(path.join(dir, "elsewhere"), JSON.stringify(note)),
        fs.symlinkSync(path.join(dir, "elsewhere"), file)
      ),
    ],
    ["too large", (file: string) => fs.writeFileSync(file, JSON.stringify({ ...note, detail: "x".repeat(5000) }))],
    ["not JSON", (file: string) => fs.writeFileSync(file, "{")],
    ["an unknown reason", (file: string) => fs.writeFileSync(file, JSON.stringify({ ...note, reason: "Rm -rf" }))],
    ["an extra field", (file: string) => fs.writeFileSync(file, JSON.stringify({ ...note, extra: 1 }))],
  ])("is not read when it is %s", (_name, make) => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, SHUTDOWN_NOTES_DIR));
    make(path.join(dir, SHUTDOWN_NOTES_DIR, `${ID}.json`), dir);
    expect(readShutdownNote(dir, ID)).toBeNull();
  });

  it("a session id that is not one names no file", () => {
    const dir = tempDir();
    leaveShutdownNote(dir, { ...note, sessionId: "../../etc" }, () => undefined);
    expect(fs.existsSync(path.join(dir, SHUTDOWN_NOTES_DIR))).toBe(false);
    expect(readShutdownNote(dir, "../x")).toBeNull();
  });
});
