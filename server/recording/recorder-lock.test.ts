// The recorder lock against real processes: this one, a finished one, and a pid whose start time differs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { holdRecorderLock, RECORDER_FILE, recorderRunning, releaseRecorderLock } from "./recorder-lock.ts";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-lock-"));

describe("recorder lock", () => {
  it("is held while this process records, and gone once released", () => {
    const dir = tempDir();
    expect(recorderRunning(dir)).toBe(false);
    holdRecorderLock(dir);
    expect(recorderRunning(dir)).toBe(true);
    releaseRecorderLock(dir);
    expect(recorderRunning(dir)).toBe(false);
  });

  it.each([
    ["a finished process", () => ({ pid: spawnSync("true").pid, startTime: null })],
    ["a reused pid (another start time)", () => ({ pid: process.pid, startTime: "1" })],
    ["a damaged file", () => "{"],
    ["no pid", () => ({ startTime: "1" })],
    ["pid 0 (never a process group)", () => ({ pid: 0, startTime: null })],
  ])("does not count %s", (_name, lock) => {
    const dir = tempDir();
    const value = lock();
    fs.writeFileSync(path.join(dir, RECORDER_FILE), typeof value === "string" ? value : JSON.stringify(value));
    expect(recorderRunning(dir)).toBe(false);
  });
});
