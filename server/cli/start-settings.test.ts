// bin/studyloop.js's first line: started the ways a learner starts it (the command itself, `npm run
// web`), the server's own process carries glibc's arena limit from its first instruction, a learner's
// own limit wins, and what the server starts gets the learner's environment back. Real processes; the
// kernel's copy of each process's starting environment (/proc/PID/environ) is what glibc read.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ARENAS_MARK, DEFAULT_ARENA_MAX, forgetStartSettings } from "../../bin/start-settings.js";
import { PROJECT_ROOT } from "../config/paths.ts";

const BIN = path.join(PROJECT_ROOT, "bin", "studyloop.js");

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The test's environment without any arena setting of its own, plus `extra`. */
function learnerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, STUDYLOOP_DATA_DIR: "", ...extra };
  if (!("MALLOC_ARENA_MAX" in extra)) delete env.MALLOC_ARENA_MAX;
  delete env[ARENAS_MARK];
  return env;
}

/** The environment a process started with, as the kernel keeps it. */
function startingEnvironment(pid: number): Map<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

/** Processes whose parent chain leads to `root` (npm, then what its script started). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const isBelow = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter(isBelow);
}

/** Starts `command args` and waits until a server in it is running; stops it after the test. */
async function started(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`studyloop web did not start:\n${output}`)), 120_000);
    child.on("exit", () => reject(new Error(`${command} exited before the server ran:\n${output}`)));
    child.stdout!.on("data", () => {
      if (!output.includes("Press Ctrl-C to stop.")) return;
      clearTimeout(timer);
      resolve();
    });
  });
  return child;
}

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-start-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, "data");
}

/** The server's own process (node running bin/studyloop.js) among `pids`, stopped after the test. */
function serverAmong(pids: number[]): number {
  const servers = pids.filter((pid) => {
    try {
      const argv = commandLine(pid);
      const script = argv[1] === undefined ? "" : path.resolve(fs.readlinkSync(`/proc/${pid}/cwd`), argv[1]);
      return path.basename(argv[0] ?? "") === "node" && fs.realpathSync(script) === BIN;
    } catch {
      return false;
    }
  });
  expect(servers).toHaveLength(1);
  cleanups.push(() => process.kill(servers[0]!, "SIGKILL"));
  return servers[0]!;
}

describe("the command's first line", () => {
  it("runs the server as the command's own process with glibc's arenas capped", async () => {
    const child = await started(BIN, ["web", "--port", "0", "--data-dir", dataDir()], learnerEnv());
    const pid = serverAmong([child.pid!]); // env and sh replaced themselves: the PID spawned is node's
    const env = startingEnvironment(pid);
    expect(env.get("MALLOC_ARENA_MAX")).toBe(DEFAULT_ARENA_MAX);
    expect(env.get(ARENAS_MARK)).toBe(DEFAULT_ARENA_MAX);
  });

  it("does so under `npm run web`, as the README starts it", async () => {
    const npm = await started("npm", ["run", "--silent", "web", "--", "--port", "0", "--data-dir", dataDir()], learnerEnv());
    cleanups.push(() => npm.kill("SIGKILL"));
    const env = startingEnvironment(serverAmong(descendants(npm.pid!)));
    expect(env.get("MALLOC_ARENA_MAX")).toBe(DEFAULT_ARENA_MAX);
  });

  it("keeps the learner's own MALLOC_ARENA_MAX", async () => {
    const child = await started(BIN, ["web", "--port", "0", "--data-dir", dataDir()], learnerEnv({ MALLOC_ARENA_MAX: "4" }));
    const env = startingEnvironment(serverAmong([child.pid!]));
    expect(env.get("MALLOC_ARENA_MAX")).toBe("4");
    expect(env.has(ARENAS_MARK)).toBe(false);
  });

  it("is not applied by `node bin/studyloop.js`, which skips the line (the control)", async () => {
    const child = await started(process.execPath, [BIN, "web", "--port", "0", "--data-dir", dataDir()], learnerEnv());
    const env = startingEnvironment(serverAmong([child.pid!]));
    expect(env.has("MALLOC_ARENA_MAX")).toBe(false);
  });
});

describe("forgetStartSettings", () => {
  it.each([
    ["the line supplied the limit: both go", { MALLOC_ARENA_MAX: "2", [ARENAS_MARK]: "2", PATH: "/bin" }, { PATH: "/bin" }],
    ["the learner set their own: it stays", { MALLOC_ARENA_MAX: "4", PATH: "/bin" }, { MALLOC_ARENA_MAX: "4", PATH: "/bin" }],
    ["a learner's limit with a stale mark: the limit stays", { MALLOC_ARENA_MAX: "4", [ARENAS_MARK]: "2" }, { MALLOC_ARENA_MAX: "4" }],
    ["nothing set", { PATH: "/bin" }, { PATH: "/bin" }],
  ])("%s", (_name, before, after) => {
    const env: Record<string, string | undefined> = { ...before };
    forgetStartSettings(env);
    expect(env).toEqual(after);
  });
});
