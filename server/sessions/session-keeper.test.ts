// The keeper on a real SQLite file with a fake agent: durable ending under database faults, the
// grace window, pauses, and a bounded shutdown.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isDbUnavailable } from "../db/db-faults.ts";
import { makeTestCore, START, type TestCore } from "./test-support.ts";
import { SHUTDOWN_NOTES_DIR } from "./shutdown-notes.ts";

let core: TestCore | undefined;
afterEach(async () => {
  await core?.close();
  if (core) fs.rmSync(core.dir, { recursive: true, force: true });
  core = undefined;
});

async function rowOf(c: TestCore, id: string) {
  return (await c.db.studySession.findUnique({ where: { id } }))!;
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("End under database faults", () => {
  it("a held write lock: End is refused with the cause, the agent keeps running, and End works once the lock is gone", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const release = core.holdWriteLock();
    const error = await refusal(core.service.end());
    release();
    expect(isDbUnavailable(error) && error.kind).toBe("locked");
    expect((error as Error).message).toMatch(/another program is holding the database locked/);
    // Nothing happened: the agent was not stopped, the row is live.
    expect(core.transports[0]!.killed).toBe(false);
    expect((await rowOf(core, session.id)).status).toBe("live");
    expect((await core.service.state()).session?.status).toBe("live");

    const ended = (await core.service.end()).session;
    expect(ended.status).toBe("ended");
    expect(ended.endReason).toBe("ended-by-learner");
    expect(core.transports[0]!.killed).toBe(true);
    const next = await core.service.start(START);
    expect(next.session.status).toBe("live");
  });

  it("a fault after 'ending' was written: the agent is stopped, the row says ending, and a retried End finishes with the learner's reason", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const agent = core.transports[0]!;
    let release: (() => void) | undefined;
    // The lock is taken between the "ending" write and the final write.
    agent.onSnapshot = () => {
      agent.onSnapshot = () => undefined;
      release = core!.holdWriteLock();
    };
    const error = await refusal(core.service.end());
    expect(isDbUnavailable(error)).toBe(true);
    expect(agent.killed).toBe(true);
    const row = await rowOf(core, session.id);
    expect([row.status, row.endReason, row.endedAt]).toEqual(["ending", "ended-by-learner", null]);
    const state = await core.service.state();
    expect(state.state).toBe("ending");
    expect(state.attach).toBeNull();
    // A new start is refused while the end cannot be finished, and says why.
    expect(isDbUnavailable(await refusal(core.service.start(START)))).toBe(true);

    release!();
    const ended = (await core.service.end()).session;
    expect([ended.status, ended.endReason]).toEqual(["ended", "ended-by-learner"]);
    const final = await rowOf(core, session.id);
    expect(final.transcript).toContain("tutor ready");
    expect(final.liveSlot).toBeNull();
    expect(agent.disposed).toBe(true);
    expect((await core.service.start(START)).session.status).toBe("live");
  });

  it("the keeper finishes an interrupted end by itself once the database is back", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const agent = core.transports[0]!;
    let release: (() => void) | undefined;
    agent.onSnapshot = () => {
      agent.onSnapshot = () => undefined;
      release = core!.holdWriteLock();
    };
    await refusal(core.service.end());
    await core.service.tick(); // still locked: logged, kept
    expect((await rowOf(core, session.id)).status).toBe("ending");
    release!();
    await core.service.tick();
    const row = await rowOf(core, session.id);
    expect([row.status, row.endReason]).toEqual(["ended", "ended-by-learner"]);
  });

  it("the database file moved away: a clear refusal naming the file; once it is back End works", async () => {
    core = makeTestCore();
    await core.service.start(START);
    fs.renameSync(core.file, `${core.file}.away`);
    const error = await refusal(core.service.end());
    expect(isDbUnavailable(error) && error.kind).toBe("missing-or-damaged");
    expect((error as Error).message).toMatch(/database file is missing or damaged/);
    expect(core.transports[0]!.killed).toBe(false);
    // Reads go on from the open file.
    expect((await core.service.state()).session?.status).toBe("live");
    fs.renameSync(`${core.file}.away`, core.file);
    expect((await core.service.end()).session.status).toBe("ended");
  });

  it("an agent that exits while the database is locked is ended by the keeper afterwards, with its exit code", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const release = core.holdWriteLock();
    core.transports[0]!.output = "Unable to connect to Anthropic services\r\nexit\r\n";
    core.transports[0]!.exit(1);
    await core.service.settle();
    release();
    await core.service.tick();
    await core.service.tick();
    const row = await rowOf(core, session.id);
    expect([row.status, row.endReason, row.exitCode]).toEqual(["ended", "agent-exited", 1]);
    expect(JSON.parse(row.endOutput!)).toEqual(["Unable to connect to Anthropic services", "exit"]);
  });
});

/** A small tmpfs of its own (root only), or null where it cannot be mounted. */
function smallDisk(): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dir], { stdio: "ignore" });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

function fillDisk(dir: string): string {
  const filler = path.join(dir, "filler");
  const fd = fs.openSync(filler, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch {
    // ENOSPC: full.
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

describe.skipIf(process.getuid?.() !== 0)("End on a full disk", () => {
  it("a full disk: a clear refusal, nothing stopped; once space is freed End works and a new start succeeds", async (test) => {
    const disk = smallDisk();
    if (!disk) return test.skip();
    const dataDir = path.join(disk!, "data");
    fs.mkdirSync(dataDir);
    try {
      core = makeTestCore({}, dataDir);
      const { session } = await core.service.start(START);
      await core.db.parkedItem.create({ data: { id: "p1", sessionId: session.id, text: "why closures capture" } });
      const filler = fillDisk(disk);
      const error = await refusal(core.service.end());
      expect(isDbUnavailable(error) && error.kind).toBe("disk-full");
      expect((error as Error).message).toMatch(/disk that holds the data directory is full/);
      expect(core.transports[0]!.killed).toBe(false);
      expect((await rowOf(core, session.id)).status).toBe("live");
      fs.rmSync(filler);
      const ended = (await core.service.end()).session;
      expect([ended.status, ended.endReason]).toEqual(["ended", "ended-by-learner"]);
      // Nothing acknowledged was lost.
      expect(await core.db.parkedItem.count()).toBe(1);
      expect((await core.service.start(START)).session.status).toBe("live");
      await core.close();
      core = undefined;
    } finally {
      await core?.close();
      core = undefined;
      execFileSync("umount", [disk]);
      fs.rmSync(disk, { recursive: true, force: true });
    }
  });
});

describe("keeping sessions nobody watches", () => {
  const MIN = 60_000;

  it("grace runs out 15 minutes after the last viewer left", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    core.service.detachViewer(session.id, "v1");
    core.advance(14 * MIN);
    await core.service.tick();
    expect((await rowOf(core, session.id)).status).toBe("live");
    core.advance(2 * MIN);
    await core.service.tick();
    expect((await rowOf(core, session.id)).endReason).toBe("grace-expired");
  });

  it("a paused session survives 20 minutes with no page, and is said to be kept until pause bound + grace", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    const pausedAt = new Date();
    await core.db.studySession.update({ where: { id: session.id }, data: { pausedAt } });
    core.service.detachViewer(session.id, "v1");
    core.advance(20 * MIN);
    await core.service.tick();
    const view = (await core.service.state()).session!;
    expect(view.status).toBe("live");
    expect(view.keptUntil).toBe(new Date(pausedAt.getTime() + 3 * 60 * MIN + 15 * MIN).toISOString());
    expect(core.transports[0]!.killed).toBe(false);
    // Past the bound (3 h) plus grace, it ends like any session nobody came back to.
    core.advance(3 * 60 * MIN);
    await core.service.tick();
    expect((await rowOf(core, session.id)).endReason).toBe("grace-expired");
  });

  it("after a resume, grace counts from the resume", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    await core.db.studySession.update({ where: { id: session.id }, data: { pausedAt: new Date() } });
    core.service.detachViewer(session.id, "v1");
    core.advance(60 * MIN);
    await core.db.studySession.update({ where: { id: session.id }, data: { pausedAt: null } });
    core.service.events.study("resumed", session.id, undefined, new Date(Date.now() + 60 * MIN));
    core.advance(10 * MIN);
    await core.service.tick();
    expect((await rowOf(core, session.id)).status).toBe("live");
    core.advance(6 * MIN);
    await core.service.tick();
    expect((await rowOf(core, session.id)).endReason).toBe("grace-expired");
  });
});

describe("checkpoints", () => {
  it("a checkpoint stuck behind the mirror (a flood on a busy machine) never holds back the heartbeat, and saves nothing over an end", async () => {
    core = makeTestCore({ STUDYLOOP_CHECKPOINT_SECONDS: "1" });
    const { session } = await core.service.start(START);
    const agent = core.transports[0]!;
    await core.service.attachViewer(session.id, "v1", () => undefined);
    let release = () => {};
    agent.snapshotGate = new Promise<void>((resolve) => (release = resolve));
    agent.lastSeq = 1;
    agent.output = "before the end";
    core.advance(2_000);
    await core.service.tick(); // the checkpoint starts and waits for the mirror
    // Leases are renewed on their own beat (lease-keeper.ts), whatever the passes wait for.
    for (let beat = 0; beat < 2; beat++) {
      const before = (await rowOf(core, session.id)).heartbeatAt!.getTime();
      core.advance(1_000);
      await core.service.tick();
      await expect.poll(async () => (await rowOf(core!, session.id)).heartbeatAt!.getTime(), { timeout: 5_000 }).toBeGreaterThan(before);
    }
    // The learner ends meanwhile; the stuck checkpoint then finishes and must not write its older copy.
    agent.snapshotGate = null;
    agent.output = "the final transcript";
    await core.service.end();
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect((await rowOf(core, session.id)).transcript).toBe("the final transcript");
  });
});

describe("warning that grace runs out", () => {
  const MIN = 60_000;

  function listen(c: TestCore): [string, string][] {
    const heard: [string, string][] = [];
    c.service.events.on("grace-ending", (id, endsAt) => heard.push([id, endsAt.toISOString()]));
    c.service.events.on("grace-kept", (id) => heard.push([id, "kept"]));
    return heard;
  }

  it("says once, 5 minutes before grace runs out, when the session ends; again after a viewer came and left", async () => {
    core = makeTestCore();
    const heard = listen(core);
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    const leftAt = Date.now();
    core.service.detachViewer(session.id, "v1");
    core.advance(9 * MIN);
    await core.service.tick();
    expect(heard).toEqual([]);
    core.advance(1 * MIN + 1_000);
    await core.service.tick();
    await core.service.tick();
    expect(heard).toHaveLength(1);
    expect(heard[0]![0]).toBe(session.id);
    // The end it names is grace (15 minutes) after the viewer left, give or take the test's clock.
    expect(Math.abs(Date.parse(heard[0]![1]) - (leftAt + 15 * MIN))).toBeLessThan(5_000);
    core.advance(2 * MIN);
    await core.service.tick();
    expect(heard).toHaveLength(1);

    // The learner came back: the warning is taken back; a new window, and a new warning when it runs low.
    await core.service.attachViewer(session.id, "v2", () => undefined);
    await core.service.tick();
    await core.service.tick();
    expect(heard.slice(1)).toEqual([[session.id, "kept"]]);
    core.service.detachViewer(session.id, "v2");
    core.advance(11 * MIN);
    await core.service.tick();
    expect(heard).toHaveLength(3);
    expect(Date.parse(heard[2]![1])).toBeGreaterThan(Date.parse(heard[0]![1]));
    expect((await rowOf(core, session.id)).status).toBe("live");
  });

  it("a paused session is warned 5 minutes before its pause bound plus grace, not while it is kept", async () => {
    core = makeTestCore();
    const heard = listen(core);
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    await core.db.studySession.update({ where: { id: session.id }, data: { pausedAt: new Date() } });
    core.service.detachViewer(session.id, "v1");
    core.advance(20 * MIN);
    await core.service.tick();
    expect(heard).toEqual([]);
    // Kept for 3 hours plus grace (195 minutes in all): at 189 minutes not yet, at 191 the warning.
    core.advance(169 * MIN);
    await core.service.tick();
    expect(heard).toEqual([]);
    core.advance(2 * MIN);
    await core.service.tick();
    expect(heard.map(([id]) => id)).toEqual([session.id]);
    expect((await rowOf(core, session.id)).status).toBe("live");
  });

  it("a session nobody has opened yet is not warned (its page is opening it)", async () => {
    core = makeTestCore();
    const heard = listen(core);
    await core.service.start(START);
    await core.service.tick();
    core.advance(60_000);
    await core.service.tick();
    expect(heard).toEqual([]);
  });

  it("the lead is a setting: STUDYLOOP_GRACE_WARNING_SECONDS", async () => {
    core = makeTestCore({ STUDYLOOP_GRACE_WARNING_SECONDS: "60" });
    const heard = listen(core);
    const { session } = await core.service.start(START);
    await core.service.attachViewer(session.id, "v1", () => undefined);
    core.service.detachViewer(session.id, "v1");
    core.advance(13 * MIN);
    await core.service.tick();
    expect(heard).toEqual([]);
    core.advance(1 * MIN + 1_000);
    await core.service.tick();
    expect(heard).toHaveLength(1);
  });
});

describe("shutdown", () => {
  it("completes while another program holds the lock, stops the agent, and leaves the row for the next start's verdict", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const release = core.holdWriteLock();
    await core.service.shutdown();
    release();
    expect(core.transports[0]!.killed).toBe(true);
    expect((await rowOf(core, session.id)).endedAt).toBeNull();
  });

  it("under a held lock, the next start still records the shutdown's reason, not a crash's (issue 42)", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    const release = core.holdWriteLock();
    const stoppedAt = Date.now();
    await core.service.shutdown();
    release();
    // The stopped server's process is gone: its row names a pid that has exited.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    await core.db.studySession.update({ where: { id: session.id }, data: { ownerPid: gone } });
    const next = makeTestCore({}, core.dir);
    try {
      const { lastEnded } = await next.service.state();
      expect(lastEnded).toMatchObject({ id: session.id, status: "ended", endReason: "server-shutdown" });
      expect(Date.parse(lastEnded!.endedAt!)).toBeGreaterThanOrEqual(stoppedAt);
      expect(fs.readdirSync(path.join(core.dir, SHUTDOWN_NOTES_DIR))).toEqual([]);
    } finally {
      await next.close();
    }
  });

  it("ends live sessions as server-shutdown with their transcript", async () => {
    core = makeTestCore();
    const { session } = await core.service.start(START);
    await core.service.shutdown();
    const row = await rowOf(core, session.id);
    expect([row.endReason, row.transcript]).toEqual(["server-shutdown", "tutor ready\r\n"]);
  });
});
