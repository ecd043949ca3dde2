// Starts a real StudyLoop server process (the production build) for a test, on a free port with its
// own data directory, and lets the test stop it cleanly or kill -9 it.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const TEST_TUTOR = path.join(ROOT, "e2e", "fixtures", "test-tutor.mjs");
export const ACP_TEST_AGENT = path.join(ROOT, "e2e", "fixtures", "acp-test-agent.mjs");

export interface StartedServer {
  readonly url: string;
  /** With --lan: the one-time pairing link printed for this machine (loopback). */
  readonly pairLink: string | undefined;
  readonly dataDir: string;
  readonly process: ChildProcess;
  readonly output: () => string;
  stop(): Promise<number | null>;
  kill9(): Promise<void>;
}

/** A data directory whose config offers the deterministic test tutor as agent "tutor". */
export function makeDataDir(extraAgents: Record<string, unknown> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-e2e-"));
  fs.writeFileSync(
    path.join(dir, "studyloop.config.json"),
    JSON.stringify(
      {
        agents: {
          tutor: {
            label: "Test tutor",
            command: process.execPath,
            args: [TEST_TUTOR],
            acp: { command: process.execPath, args: [ACP_TEST_AGENT] },
          },
          ...extraAgents,
        },
      },
      null,
      2,
    ),
  );
  return dir;
}

export async function startServer(opts: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {}): Promise<StartedServer> {
  const dataDir = opts.dataDir ?? makeDataDir();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin", "studyloop.js"), "web", "--port", "0", "--data-dir", dataDir, ...(opts.args ?? [])],
    {
      cwd: ROOT,
      // DATABASE_URL cleared: a spec never writes to the learner's PostgreSQL (a spec passes its own).
      env: { ...process.env, DATABASE_URL: "", STUDYLOOP_HEARTBEAT_SECONDS: "1", STUDYLOOP_KEEP_BUILD: "1", ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`StudyLoop did not start within 60 s:\n${output}`)), 60_000);
    const onData = () => {
      const match = /running at (https?:\/\/\S+)/.exec(output);
      // With --lan the pairing links come between "running at" and this line.
      if (match && output.includes("Press Ctrl-C to stop.")) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`StudyLoop exited with ${code} before it started:\n${output}`));
    });
  });
  return {
    url,
    pairLink: /This machine: \S+\n\s+pair: (\S+)/.exec(output)?.[1],
    dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    kill9: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Pids of the test tutors running in a server's data directory (its sessions' folders). */
export function tutorsOf(server: StartedServer): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.includes("test-tutor.mjs") && fs.realpathSync(`/proc/${entry}/cwd`).startsWith(fs.realpathSync(server.dataDir))) {
        pids.push(Number(entry));
      }
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return pids;
}
