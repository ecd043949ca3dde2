// Probes of a session owner's liveness (/proc, kill(pid, 0), tmux): thin I/O around verdict.ts.
// Every failure is a value ("unknown"), never a throw and never "gone": unknown is not dead.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { planFacts, type OwnerFacts, type PidFacts, type SelfIdentity, type StoredOwnership } from "./verdict.ts";

export const BOOT_ID_FILE = "/proc/sys/kernel/random/boot_id";
/** How long tmux may take to answer has-session before the probe reports unknown, in ms. */
export const TMUX_PROBE_TIMEOUT_MS = 2_000;
/** Bytes of tmux output kept for classifying its answer; its messages are one short line. */
const TMUX_OUTPUT_LIMIT_BYTES = 4_096;

/** The kernel's boot id: changes on every boot, so a reboot is recognised. Null off Linux. */
export function readBootId(): string | null {
  try {
    return readFileSync(BOOT_ID_FILE, "utf8").trim() || null;
  } catch {
    return null;
  }
}

interface ProcStat {
  state: string;
  startTime: string;
}

/**
 * Parses /proc/<pid>/stat. comm (field 2) is in parentheses and may itself hold spaces and ")", so
 * the fields after it are found from the LAST ")". See proc(5).
 */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(")");
  if (close < 0) return null;
  // After ") ": field 3 (state) is index 0, so field 22 (starttime, clock ticks since boot) is 19.
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const state = rest[0];
  const startTime = rest[19];
  if (!state || !startTime || !/^\d+$/.test(startTime)) return null;
  return { state, startTime };
}

function readProcStat(pid: number): ProcStat | null {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/** The process start time (field 22 of /proc/<pid>/stat): with the pid, it names one process. */
export function processStartTime(pid: number): string | null {
  try {
    return readProcStat(pid)?.startTime ?? null;
  } catch {
    return null;
  }
}

const errorCode = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/** Does `pid` exist? ESRCH => no; EPERM => yes (it exists, owned by another user). */
function killZero(pid: number): "exists" | "gone" | { error: string } {
  try {
    process.kill(pid, 0);
    return "exists";
  } catch (e) {
    const code = errorCode(e);
    if (code === "ESRCH") return "gone";
    if (code === "EPERM") return "exists";
    return { error: `kill(${pid}, 0) failed: ${code ?? String(e)}` };
  }
}

export function probePid(pid: number): PidFacts {
  // kill(0 or negative, 0) would signal a process group: a corrupt row must not do that.
  if (!Number.isSafeInteger(pid) || pid <= 0) return { state: "unknown", error: `invalid pid ${pid}` };
  const first = killZero(pid);
  if (first === "gone") return { state: "gone" };
  if (first !== "exists") return { state: "unknown", error: first.error };
  // No /proc at all (not Linux): kill(0) is all we can know; the start time stays unverified.
  if (!existsSync("/proc/self/stat")) return { state: "alive", startTime: null };
  try {
    const stat = readProcStat(pid);
    if (!stat) return { state: "unknown", error: `could not parse /proc/${pid}/stat` };
    if (stat.state === "Z") return { state: "zombie" };
    if (stat.state === "X") return { state: "gone" }; // dead, being reaped
    return { state: "alive", startTime: stat.startTime };
  } catch (e) {
    // It may have exited between kill() and the read; otherwise /proc hides it (hidepid): unknown.
    if (errorCode(e) === "ENOENT" && killZero(pid) === "gone") return { state: "gone" };
    return { state: "unknown", error: `could not read /proc/${pid}/stat: ${errorCode(e) ?? String(e)}` };
  }
}

export interface TmuxProbeOptions {
  /** A tmux socket name (-L), so tests use a private server. */
  socket?: string;
  /** The tmux executable; tests inject a missing or hanging one. */
  tmuxPath?: string;
  timeoutMs?: number;
}

/**
 * tmux's own words for "no such session" (tmux 3.x client.c and cmd-find.c). "error connecting" is
 * absence only when the socket does not exist; "Permission denied" and the rest say nothing.
 */
const TMUX_ABSENT = /can't find session|no server running on|error connecting to .*\((No such file or directory|Connection refused)\)/;

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL"); // the group is already gone, or the platform has none
  }
}

/** Asks tmux whether the exact session `name` exists. Anything but a clear answer is unknown. */
export function tmuxHasSession(name: string, opts: TmuxProbeOptions = {}): Promise<"present" | "absent" | "unknown"> {
  // "=NAME" asks for exactly NAME: a bare name would also match a session it is a prefix of.
  const args = [...(opts.socket ? ["-L", opts.socket] : []), "has-session", "-t", `=${name}`];
  return new Promise((resolve) => {
    let output = "";
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (answer: "present" | "absent" | "unknown") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    let child: ChildProcess;
    try {
      // Its own process group, so a timeout kills anything it started too.
      child = spawn(opts.tmuxPath ?? "tmux", args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    } catch {
      return settle("unknown"); // e.g. a NUL byte in the name
    }
    const collect = (chunk: Buffer) => {
      if (output.length < TMUX_OUTPUT_LIMIT_BYTES) output += chunk.toString("utf8");
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    // Resolve on the timer itself, not on "close": a grandchild holding the pipes would delay it.
    timer = setTimeout(() => {
      killGroup(child);
      settle("unknown");
    }, opts.timeoutMs ?? TMUX_PROBE_TIMEOUT_MS);
    child.on("error", () => settle("unknown")); // ENOENT: no tmux installed
    child.on("close", (code) => {
      if (code === 0) settle("present");
      else if (code === 1 && TMUX_ABSENT.test(output)) settle("absent");
      else settle("unknown");
    });
  });
}

export interface ProcessIdentity {
  host: string;
  bootId: string | null;
  pid: number;
  pidStartTime: string | null;
}

/** What this process writes as a row's owner (with its instance id). */
export function selfIdentity(): ProcessIdentity {
  return { host: os.hostname(), bootId: readBootId(), pid: process.pid, pidStartTime: processStartTime(process.pid) };
}

export interface SessionRegistryView {
  has(id: string): boolean;
  reserving(id: string): boolean;
}

export interface GatherOptions {
  leaseMs: number;
  now?: Date;
  tmux?: TmuxProbeOptions;
}

/** Probes only what planFacts says the row needs, and returns the facts for judgeSession. */
export async function gatherFacts(
  row: StoredOwnership & { id: string },
  self: SelfIdentity,
  registry: SessionRegistryView,
  opts: GatherOptions,
): Promise<OwnerFacts> {
  const plan = planFacts(row, self);
  return {
    self,
    now: opts.now ?? new Date(),
    leaseMs: opts.leaseMs,
    inRegistry: registry.has(row.id),
    reserving: registry.reserving(row.id),
    pid: plan.pid === null ? { state: "not-probed" } : probePid(plan.pid),
    tmux: plan.tmux === null ? "not-probed" : await tmuxHasSession(plan.tmux, opts.tmux),
  };
}
