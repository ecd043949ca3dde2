// Owner probes against real processes and a private tmux server: no mocks.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { gatherFacts, parseProcStat, probePid, processStartTime, readBootId, selfIdentity, tmuxHasSession } from "./owner-probes.ts";
import { judgeSession, type StoredOwnership } from "./verdict.ts";

const onLinux = process.platform === "linux";
const children: ChildProcess[] = [];
function start(cmd: string, args: string[]): ChildProcess {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  return child;
}
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

async function until<T>(read: () => T, ok: (v: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A zombie needs a live parent that never reaps: python forks a child that exits at once and then
 * sleeps without waiting. (A shell is no good here: it may reap its background job before exec.)
 */
async function startZombie(): Promise<{ parent: ChildProcess; pid: number }> {
  const script = "import os,time\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid,flush=True)\ntime.sleep(30)";
  const parent = start("python3", ["-c", script]);
  const [line] = (await once(parent.stdout!, "data")) as [Buffer];
  return { parent, pid: Number(line.toString().trim()) };
}

const SELF = { instanceId: "inst-test", host: os.hostname(), hostId: "host-test", bootId: readBootId() };
const noRegistry = { has: () => false, reserving: () => false };
function ownedBy(pid: number, startTime: string | null): StoredOwnership & { id: string } {
  return {
    id: "s1",
    status: "live",
    transport: "pty",
    startedAt: new Date(Date.now() - 60_000),
    ownerInstance: "inst-other",
    ownerHost: SELF.host,
    ownerHostId: SELF.hostId,
    ownerBootId: SELF.bootId,
    ownerPid: pid,
    ownerPidStartTime: startTime,
    ownerUrl: null,
    heartbeatAt: new Date(Date.now() - 1_000),
    muxSession: null,
  };
}

describe("parseProcStat", () => {
  it("finds field 22 after a comm holding spaces and parentheses", () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3)); // field 3 onward
    fields[0] = "S";
    const stat = parseProcStat(`123 (evil) ) (name x) ${fields.join(" ")}\n`);
    expect(stat).toEqual({ state: "S", startTime: "22" });
  });
  it("returns null for a truncated line", () => {
    expect(parseProcStat("123 (sh) S 1 2")).toBeNull();
  });
});

describe.runIf(onLinux)("pid probes (real processes)", () => {
  it("reads this machine's boot id", () => {
    expect(readBootId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(selfIdentity()).toMatchObject({ pid: process.pid, bootId: readBootId(), host: os.hostname() });
  });

  it("a live child is alive, with its own start time (not before ours)", async () => {
    const child = start("sleep", ["30"]);
    await once(child, "spawn");
    const facts = probePid(child.pid!);
    expect(facts).toEqual({ state: "alive", startTime: processStartTime(child.pid!) });
    const ours = Number(selfIdentity().pidStartTime);
    expect(facts.state === "alive" && Number(facts.startTime)).toBeGreaterThanOrEqual(ours);
  });

  it("a killed and reaped child is gone", async () => {
    const child = start("sleep", ["30"]);
    await once(child, "spawn");
    child.kill("SIGKILL");
    await once(child, "exit"); // node has reaped it
    expect(probePid(child.pid!)).toEqual({ state: "gone" });
  });

  it("an exited child its parent never reaps is a zombie", async () => {
    const { pid } = await startZombie();
    expect(
      await until(
        () => probePid(pid),
        (f) => f.state === "zombie",
      ),
    ).toEqual({ state: "zombie" });
  });

  it("pid 1 (another user's process or not) counts as alive, never gone", () => {
    expect(probePid(1).state).toBe("alive");
  });

  // EPERM needs another user's process: as root, probe our own child from an unprivileged user, who
  // must be able to read this checkout (a private temporary clone is not readable: then skip).
  const probesFile = path.join(import.meta.dirname, "owner-probes.ts");
  const tsx = path.join(import.meta.dirname, "..", "..", "node_modules", ".bin", "tsx");
  const asNobody = (args: string[], options: Parameters<typeof spawnSync>[2] = {}) =>
    spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ...args], options);
  const canDropPrivileges =
    process.getuid?.() === 0 &&
    spawnSync("setpriv", ["--version"]).status === 0 &&
    asNobody([
      process.execPath,
      "-e",
      `for (const f of ${JSON.stringify([probesFile, tsx])}) require("fs").accessSync(f, require("fs").constants.R_OK);`,
    ]).status === 0;
  it.runIf(canDropPrivileges)("another user's live process (kill gives EPERM) is alive", async () => {
    const child = start("sleep", ["30"]);
    await once(child, "spawn");
    const code = [
      `import { probePid } from ${JSON.stringify(probesFile)};`,
      `let err = "none"; try { process.kill(${child.pid}, 0); } catch (e) { err = e.code; }`,
      `console.log(JSON.stringify({ err, facts: probePid(${child.pid}) }));`,
    ].join("\n");
    const out = asNobody([tsx, "-e", code], { encoding: "utf8", cwd: os.tmpdir() });
    expect(JSON.parse(String(out.stdout))).toEqual({
      err: "EPERM",
      facts: { state: "alive", startTime: processStartTime(child.pid!) },
    });
  });

  it("a pid that could signal a process group is refused as unknown", () => {
    expect(probePid(0).state).toBe("unknown");
    expect(probePid(-1).state).toBe("unknown");
  });

  it("end to end: a reused pid (live, start time differs) is orphaned", async () => {
    const child = start("sleep", ["30"]);
    await once(child, "spawn");
    const row = ownedBy(child.pid!, "1"); // recorded by an earlier process that had this pid
    const facts = await gatherFacts(row, SELF, noRegistry, { leaseMs: 30_000 });
    expect(facts.pid).toEqual({ state: "alive", startTime: processStartTime(child.pid!) });
    const v = judgeSession(row, facts);
    expect(v).toMatchObject({
      kind: "orphaned",
      rule: "pty/acp, same host, same boot: pid gone, zombie, or start time differs",
      cause: expect.stringContaining("another process"),
    });
  });

  it("end to end: the owner a zombie is orphaned; the same owner alive is live elsewhere", async () => {
    const { pid } = await startZombie();
    await until(
      () => probePid(pid),
      (f) => f.state === "zombie",
    );
    const row = ownedBy(pid, null);
    const zombie = judgeSession(row, await gatherFacts(row, SELF, noRegistry, { leaseMs: 30_000 }));
    expect(zombie).toMatchObject({
      kind: "orphaned",
      rule: "pty/acp, same host, same boot: pid gone, zombie, or start time differs",
      cause: expect.stringContaining("zombie"),
    });

    const self = ownedBy(process.pid, processStartTime(process.pid));
    const live = judgeSession(self, await gatherFacts(self, SELF, noRegistry, { leaseMs: 30_000 }));
    expect(live).toMatchObject({ kind: "live-elsewhere", via: "server" });
  });
});

describe("tmuxHasSession", () => {
  const socket = `studyloop-test-${randomBytes(6).toString("hex")}`;
  const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  let dir = "";
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "studyloop-tmux-"));
  });
  afterAll(() => {
    tmux("kill-server");
    // tmux leaves its socket file behind when the server exits on its own (last session killed).
    const socketDir = path.join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`);
    rmSync(path.join(socketDir, socket), { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it("no tmux server on the socket: absent", async () => {
    expect(await tmuxHasSession("study-x", { socket })).toBe("absent");
  });

  it("a running session is present; another name, or only a prefix of it, is absent", async () => {
    expect(tmux("new-session", "-d", "-s", "study-abc", "sleep 60").status).toBe(0);
    expect(await tmuxHasSession("study-abc", { socket })).toBe("present");
    expect(await tmuxHasSession("study-zzz", { socket })).toBe("absent");
    expect(await tmuxHasSession("study", { socket })).toBe("absent"); // "=" asks for the exact name
  });

  it("a killed session is absent, and gatherFacts + judgeSession end the row as tmux-gone", async () => {
    tmux("kill-session", "-t", "=study-abc");
    const row = { ...ownedBy(1, null), transport: "tmux" as const, muxSession: "study-abc" };
    const facts = await gatherFacts(row, SELF, noRegistry, { leaseMs: 30_000, tmux: { socket } });
    expect(facts).toMatchObject({ tmux: "absent", pid: { state: "not-probed" } });
    expect(judgeSession(row, facts)).toMatchObject({ kind: "orphaned", endReason: "tmux-gone" });
  });

  it("a tmux that hangs is unknown, within the timeout", async () => {
    const hang = script("tmux-hang", "exec sleep 30");
    const t0 = Date.now();
    expect(await tmuxHasSession("study-abc", { tmuxPath: hang, timeoutMs: 300 })).toBe("unknown");
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("a hanging tmux whose child holds the pipes is unknown in time, and its child is killed", async () => {
    const pidFile = path.join(dir, "grandchild.pid");
    const hang = script("tmux-hang-child", `sleep 30 &\necho $! > ${pidFile}\nwait`);
    const t0 = Date.now();
    expect(await tmuxHasSession("study-abc", { tmuxPath: hang, timeoutMs: 300 })).toBe("unknown");
    expect(Date.now() - t0).toBeLessThan(2_000);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(
      (
        await until(
          () => probePid(grandchild),
          (f) => f.state !== "alive",
        )
      ).state,
    ).not.toBe("alive");
  });

  it("a missing tmux binary is unknown", async () => {
    expect(await tmuxHasSession("study-abc", { tmuxPath: path.join(dir, "no-such-tmux") })).toBe("unknown");
  });

  it("exit 1 with words that do not say the session is missing is unknown", async () => {
    const message = "error connecting to /tmp/tmux-0/default (Permission denied)";
    const denied = script("tmux-denied", `echo "${message}" >&2; exit 1`);
    expect(await tmuxHasSession("study-abc", { tmuxPath: denied })).toBe("unknown");
    const odd = script("tmux-odd", 'echo "something else" >&2; exit 1');
    expect(await tmuxHasSession("study-abc", { tmuxPath: odd })).toBe("unknown");
  });
});
