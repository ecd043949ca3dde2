// Who is writing a session's recording from outside the web server: a CLI session's pane recorder
// (cli/record-pane.ts) leaves its pid and the pid's start time in the session folder while it runs.
// A recording being written is indexed by its writer; anyone else only reads it (storing a transcript
// at the same time would race the writer's own). A dead or reused pid does not count.
import fs from "node:fs";
import path from "node:path";
import { probePid, processStartTime } from "../sessions/owner-probes.ts";

export const RECORDER_FILE = "recorder.json";

interface RecorderLock {
  readonly pid: number;
  readonly startTime: string | null;
}

/** Says this process records the session in `dir` (written aside, then renamed: never half a file). */
export function holdRecorderLock(dir: string): void {
  const lock: RecorderLock = { pid: process.pid, startTime: processStartTime(process.pid) };
  const file = path.join(dir, RECORDER_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(lock), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}

export function releaseRecorderLock(dir: string): void {
  fs.rmSync(path.join(dir, RECORDER_FILE), { force: true });
}

/** Is a recorder still writing the recording in `dir`? A probe that cannot tell counts as running. */
export function recorderRunning(dir: string): boolean {
  let lock: Partial<RecorderLock>;
  try {
    lock = JSON.parse(fs.readFileSync(path.join(dir, RECORDER_FILE), "utf8")) as Partial<RecorderLock>;
  } catch {
    return false;
  }
  if (typeof lock.pid !== "number" || !Number.isSafeInteger(lock.pid) || lock.pid <= 0) return false;
  const facts = probePid(lock.pid);
  if (facts.state === "unknown") return true;
  if (facts.state !== "alive") return false;
  return !lock.startTime || !facts.startTime || facts.startTime === lock.startTime;
}
