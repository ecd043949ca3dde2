// The lease thread against real databases (a SQLite file and PostgreSQL): renewals that go on while
// this thread is blocked past the lease, a session that survives such a stall, and the fence that
// still lets another server's end win. The test process's own main thread is what gets blocked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testProviders } from "../../db/test-storage.ts";
import { makeHostCore, makeTestCoreOn, START, type TestCore } from "../test-support.ts";
import { LeaseThread } from "./lease-thread.ts";
import type { LeaseListener } from "./lease-renewals.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Lease 4 s, heartbeat 1 s: the owner looks again after 2 s without a renewal. */
const LEASE = { STUDYLOOP_LEASE_SECONDS: "4", STUDYLOOP_HEARTBEAT_SECONDS: "1" };

async function rowOf(core: TestCore, id: string) {
  return (await core.db.studySession.findUnique({ where: { id } }))!;
}

/** Holds this thread, as a heavy request or a stuck parser on the server's main thread would. */
function blockThisThread(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: no timer, no message, no I/O callback runs here
  }
}

async function owner(provider: "sqlite" | "postgresql"): Promise<TestCore> {
  const core = await makeTestCoreOn(provider, { ...LEASE, STUDYLOOP_HOST_ID: "host-a" }, { leaseThread: true });
  cleanups.push(() => core.close());
  return core;
}

describe.each(testProviders())("the lease thread on %s", (provider) => {
  it("renews while this thread is blocked past the lease, so the session survives the stall", async () => {
    const a = await owner(provider);
    const { session } = await a.service.start(START);
    await a.service.tick(); // the lease is held from the first pass
    const blockedAt = Date.now();
    blockThisThread(5_000); // longer than the lease (4 s)
    // The renewals went on meanwhile: the row's heartbeat moved during the block.
    const beat = (await rowOf(a, session.id)).heartbeatAt!.getTime();
    expect(beat).toBeGreaterThan(blockedAt + 1_000);
    // The keeper's first pass after the stall keeps the session (renewed, not lost).
    await a.service.tick();
    await a.service.settle();
    expect(a.transports[0]!.killed).toBe(false);
    expect(a.log.join("\n")).not.toMatch(/could not renew its lease/);
    expect((await a.service.state()).state).toBe("focus");
  });

  it("another server reading during the stall sees the session live, and ends nothing", async () => {
    const a = await owner(provider);
    const b = makeHostCore(a, "host-b", LEASE);
    cleanups.push(() => b.close());
    const { session } = await a.service.start(START);
    await a.service.tick();
    blockThisThread(5_000);
    const judged = await b.service.reconcileOpen();
    expect(judged.map((j) => j.verdict.kind)).toEqual(["live-elsewhere"]);
    expect((await rowOf(a, session.id)).endedAt).toBeNull();
  });

  it("End pressed on another server while the owner is blocked is carried out once it runs again", async () => {
    const a = await owner(provider);
    const b = makeHostCore(a, "host-b", LEASE);
    cleanups.push(() => b.close());
    const { session } = await a.service.start(START);
    await a.service.tick();
    const ending = b.service.end();
    blockThisThread(5_000);
    const outcome = await ending;
    expect(outcome.session.status).toBe("live");
    await a.service.tick();
    await a.service.settle();
    const row = await rowOf(a, session.id);
    expect({ reason: row.endReason, killed: a.transports[0]!.killed }).toEqual({ reason: "ended-by-learner", killed: true });
  });
});

describe.each(testProviders())("an owner whose lease thread stops, on %s", (provider) => {
  it("is ended on read by another host at its last renewal, exactly once", async () => {
    const a = await owner(provider);
    const b = makeHostCore(a, "host-b", LEASE);
    cleanups.push(() => b.close());
    const { session } = await a.service.start(START);
    await a.service.tick();
    const first = (await rowOf(a, session.id)).heartbeatAt!.getTime();
    await expect.poll(async () => (await rowOf(a, session.id)).heartbeatAt!.getTime(), { timeout: 10_000 }).toBeGreaterThan(first);
    await a.stopBeating();
    const beat = (await rowOf(a, session.id)).heartbeatAt!;
    if (provider === "sqlite") {
      // Stored as Prisma stores it: a reader's end is conditional on the text it read.
      const raw = a.reads!.prepare(`SELECT "heartbeat_at" AS at FROM "study_sessions" WHERE "id" = ?`).get(session.id) as { at: string };
      expect(raw.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    }
    await expect.poll(async () => (await b.service.state()).state, { timeout: 20_000 }).toBe("ended");
    const ended = await rowOf(a, session.id);
    expect({ reason: ended.endReason, endedAt: ended.endedAt, generation: ended.ownerGeneration }).toEqual({
      reason: "server-stopped",
      endedAt: beat,
      generation: 2,
    });
    expect(b.log.filter((line) => line.includes("ended on read"))).toHaveLength(1);
  });
});

describe.each(testProviders())("the lease thread's renewals on %s", (provider) => {
  function listen() {
    const heard: { renewed: string[]; lost: string[]; failed: string[] } = { renewed: [], lost: [], failed: [] };
    const listener: LeaseListener = {
      renewed: (id) => heard.renewed.push(id),
      lost: (id) => heard.lost.push(id),
      failed: (id, error) => heard.failed.push(`${id}: ${error}`),
    };
    return { heard, listener };
  }

  it("touches the supervisor's lease file after each renewal, and says when the fence refuses one", async () => {
    const a = await owner(provider);
    const { session } = await a.service.start(START);
    const row = await rowOf(a, session.id);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-lease-"));
    const leaseFile = path.join(dir, "lease");
    fs.writeFileSync(leaseFile, "");
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(leaseFile, past, past);
    const { heard, listener } = listen();
    const target = a.file ? { provider: "sqlite" as const, file: a.file } : { provider: "postgresql" as const, url: await pgUrlOf(a) };
    const thread = new LeaseThread({ target, heartbeatMs: 200, touchWithinMs: 1_000, listener, log: () => undefined });
    cleanups.push(() => thread.close());
    // A fence this process does not hold: refused, and said so once.
    thread.hold("no-such-session", { instanceId: "x", generation: 1 }, null);
    thread.hold(session.id, { instanceId: row.ownerInstance!, generation: row.ownerGeneration }, leaseFile);
    await expect.poll(() => heard.renewed.filter((id) => id === session.id).length, { timeout: 10_000 }).toBeGreaterThan(2);
    expect(fs.statSync(leaseFile).mtimeMs).toBeGreaterThan(past.getTime() + 30_000);
    expect(heard.lost).toEqual(["no-such-session"]);
    expect(thread.held()).toEqual([session.id]);
    // Ended by someone else: the next renewal is refused.
    await a.db.studySession.update({ where: { id: session.id }, data: { endedAt: new Date(), status: "ended", liveSlot: null } });
    await expect.poll(() => heard.lost, { timeout: 10_000 }).toContain(session.id);
    expect(heard.failed).toEqual([]);
  });
});

/** The PostgreSQL URL a test core's client was opened on. */
async function pgUrlOf(core: TestCore): Promise<string> {
  const [row] = (await core.db.$queryRawUnsafe(`SELECT current_database() AS db`)) as { db: string }[];
  const { testPostgresUrl } = await import("../../db/test-postgres.ts");
  const url = new URL(await testPostgresUrl());
  url.pathname = `/${row!.db}`;
  return url.toString();
}
