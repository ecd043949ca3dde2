// Ownership across hosts at the store level, on a real SQLite file AND a real PostgreSQL: several
// "hosts" (session services with their own STUDYLOOP_HOST_ID and instance) on one database. Leases
// are judged by the database's clock, so the tests wait (on conditions) for real lease time to pass.
import { afterEach, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../db/storage.ts";
import { testProviders } from "../db/test-storage.ts";
import { testPostgresUrl } from "../db/test-postgres.ts";
import { startTcpProxy, type TcpProxy } from "../db/test-tcp-proxy.ts";
import { makeHostCore, makeTestCoreOn, START, type TestCore } from "./test-support.ts";
import { SessionError } from "./session-errors.ts";

const LEASE = { STUDYLOOP_LEASE_SECONDS: "4", STUDYLOOP_HEARTBEAT_SECONDS: "1" };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Host A owns the database core; B and C are other hosts on it. */
async function hosts(provider: "sqlite" | "postgresql") {
  const a = await makeTestCoreOn(provider, { ...LEASE, STUDYLOOP_HOST_ID: "host-a" });
  const b = makeHostCore(a, "host-b", LEASE);
  const c = makeHostCore(a, "host-c", LEASE);
  cleanups.push(
    () => a.close(),
    () => b.close(),
    () => c.close(),
  );
  return { a, b, c };
}

const rowOf = async (core: TestCore, id: string) => (await core.db.studySession.findUnique({ where: { id } }))!;

describe.each(testProviders())("ownership across hosts on %s", (provider) => {
  it("a row owned by another host is live there with its link while its lease is fresh; it records the owner's host id", async () => {
    const { a, b } = await hosts(provider);
    const { session } = await a.service.start(START);
    const row = await rowOf(a, session.id);
    expect({ hostId: row.ownerHostId, generation: row.ownerGeneration }).toEqual({ hostId: "host-a", generation: 1 });
    const state = await b.service.state();
    expect(state.verdict).toMatchObject({ kind: "live-elsewhere", rule: "pty/acp, other host: heartbeat within the lease" });
    expect(state.session?.owner.url).toBe("http://host-a.test:4000");
    expect(state.attach).toBeNull();
  });

  it("an owner that stops heartbeating is ended at its last heartbeat as server-stopped, exactly once with three hosts reading at once", async () => {
    const { a, b, c } = await hosts(provider);
    const d = makeHostCore(a, "host-d", LEASE);
    cleanups.push(() => d.close());
    const { session } = await a.service.start(START);
    await a.beat();
    await a.stopBeating(); // A "dies": it never renews its lease again
    const beat = (await rowOf(a, session.id)).heartbeatAt!;
    // Until the database's clock passes the lease, nobody ends it.
    expect((await b.service.state()).verdict?.kind).toBe("live-elsewhere");
    await waitFor(
      "the lease to lapse by the database's clock",
      async () => (await b.service.store.dbNow()).getTime() - beat.getTime() > 4_100,
    );
    const reads = await Promise.all([b, c, d].map((host) => host.service.reconcileOpen()));
    expect(reads.flat().every((j) => j.row.endedAt !== null)).toBe(true);
    const endedOnRead = [b, c, d].flatMap((host) => host.log.filter((l) => l.includes("ended on read")));
    expect(endedOnRead).toHaveLength(1);
    const ended = await rowOf(a, session.id);
    expect({ reason: ended.endReason, endedAt: ended.endedAt, generation: ended.ownerGeneration, slot: ended.liveSlot }).toEqual({
      reason: "server-stopped",
      endedAt: beat,
      generation: 2,
      slot: null,
    });

    // The old owner comes back: its fenced renewal is refused, so it stops its agent; its writes change nothing.
    a.transports[0]!.output = "late output";
    await a.service.tick();
    await waitFor("A to stop its agent", async () => a.transports[0]!.killed);
    await a.service.settle();
    expect(a.log.join("\n")).toMatch(/another server ended or took over the session while this one was held up/);
    const after = await rowOf(a, session.id);
    expect({ reason: after.endReason, endedAt: after.endedAt, transcript: after.transcript }).toEqual({
      reason: "server-stopped",
      endedAt: beat,
      transcript: null,
    });
  });

  it("a reader that judged the lease lapsed ends nothing once the owner has renewed it: exactly one of the two writes wins", async () => {
    const { a, b } = await hosts(provider);
    const { session } = await a.service.start(START);
    await a.stopBeating();
    const stale = await rowOf(b, session.id);
    await waitFor("the lease to lapse", async () => (await b.service.store.dbNow()).getTime() - stale.heartbeatAt!.getTime() > 4_100);
    // The owner, back from a stall, renews first (fenced on its generation)...
    expect(await a.service.store.heartbeat(session.id, { instanceId: stale.ownerInstance!, generation: stale.ownerGeneration })).toBe(true);
    // ...so the reader's end, conditional on the heartbeat it read, does not land.
    const write = { reason: "server-stopped", endedAt: stale.heartbeatAt!, takeover: true, onlyIfHeartbeat: stale.heartbeatAt };
    expect(await b.service.store.end(stale, write, stale)).toBe(false);
    const row = await rowOf(a, session.id);
    expect({ endedAt: row.endedAt, generation: row.ownerGeneration }).toEqual({ endedAt: null, generation: 1 });
    expect((await b.service.state()).verdict?.kind).toBe("live-elsewhere");
  });

  it("one live session across hosts: of two starts at once on two hosts, one runs and the other is refused", async () => {
    const { a, b } = await hosts(provider);
    const results = await Promise.allSettled([a.service.start(START), b.service.start(START)]);
    const won = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(SessionError);
    expect((refused[0]!.reason as SessionError).code).toBe("already-active");
    expect(await a.db.studySession.count({ where: { endedAt: null } })).toBe(1);
  });

  it("End on another host is asked of the owner, which ends it within a heartbeat as if End was pressed there", async () => {
    const { a, b } = await hosts(provider);
    const { session } = await a.service.start(START);
    const outcome = await b.service.end();
    expect(outcome.endingOn).toEqual({ host: expect.any(String), url: "http://host-a.test:4000" });
    expect(outcome.session.status).toBe("live");
    expect((await rowOf(a, session.id)).endRequestedBy).toMatch(/host-b\.test/);
    expect(a.transports[0]!.killed).toBe(false);
    await a.service.tick();
    await a.service.settle();
    const row = await rowOf(a, session.id);
    expect({ reason: row.endReason, transcript: row.transcript, generation: row.ownerGeneration }).toEqual({
      reason: "ended-by-learner",
      transcript: "tutor ready\r\n",
      generation: 1,
    });
    expect(a.transports[0]!.killed).toBe(true);
    expect((await b.service.state()).state).toBe("ended");
  });

  it("heartbeats are stamped by the database's clock, not by a host whose clock is ten minutes ahead", async () => {
    const { a } = await hosts(provider);
    a.advance(10 * 60_000);
    const { session } = await a.service.start(START);
    const before = await a.service.store.dbNow();
    await a.beat();
    const after = await a.service.store.dbNow();
    const beat = (await rowOf(a, session.id)).heartbeatAt!.getTime();
    expect(beat).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(beat).toBeLessThanOrEqual(after.getTime() + 1);
  });
});

describe.skipIf(!testProviders().includes("postgresql"))("a host cut off from PostgreSQL", () => {
  it("stops its own agent past the lease, says why, and never writes over the end another host wrote", async () => {
    const url = await testPostgresUrl();
    const direct: Storage = await openStorage({ provider: "postgresql", url });
    const proxy: TcpProxy = await startTcpProxy(Number(new URL(url).port));
    const viaProxy: Storage = await openStorage({ provider: "postgresql", url: proxy.url(url) });
    cleanups.push(
      () => direct.close(),
      () => proxy.close(),
      () => viaProxy.close(),
    );
    const base = { db: direct.db, reads: null };
    const a = makeHostCore(base, "host-a", LEASE, viaProxy.db);
    const b = makeHostCore(base, "host-b", LEASE);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const endedViews: { reason: string | null }[] = [];
    a.service.on("ended", (_id, view) => endedViews.push({ reason: view.endReason }));
    const { session } = await a.service.start(START);
    await a.beat();
    await proxy.cut();
    // A's last heartbeat: nothing it sends from here on reaches the database.
    const beat = (await rowOf(b, session.id)).heartbeatAt!;
    // A's passes now fail or hang on the database; its lease watch stops the agent in time anyway.
    const ticking = setInterval(() => void a.service.tick(), 200);
    cleanups.push(async () => clearInterval(ticking));
    await waitFor("A to stop its agent", async () => a.transports[0]!.killed);
    expect(a.log.join("\n")).toMatch(/could not renew its lease on the session for \d+ s .* so it stopped the agent here/);
    expect(endedViews).toContainEqual({ reason: "lease-lost" });

    // B ends the lapsed row at A's last heartbeat.
    await waitFor("B to end the lapsed row", async () => (await b.service.state()).state === "ended");
    const ended = await rowOf(b, session.id);
    expect({ reason: ended.endReason, endedAt: ended.endedAt }).toEqual({ reason: "server-stopped", endedAt: beat });

    // A reaches the database again: it finishes without writing over B's end.
    await proxy.restore();
    await waitFor("A to let the session go", async () => !(await a.service.state()).session);
    await a.service.settle();
    const after = await rowOf(b, session.id);
    expect({ reason: after.endReason, endedAt: after.endedAt, transcript: after.transcript, generation: after.ownerGeneration }).toEqual({
      reason: "server-stopped",
      endedAt: beat,
      transcript: null,
      generation: 2,
    });
  });
});
