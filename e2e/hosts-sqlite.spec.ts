// Two StudyLoop servers with their own host ids sharing ONE SQLite file (as two hosts may on one
// machine, or a container beside its host): the lease alone decides, as on PostgreSQL (hosts.spec.ts),
// with real processes killed for real.
import path from "node:path";
import { test, expect, type APIRequestContext } from "@playwright/test";
import { startServer, tutorsOf, type StartedServer } from "./support/server";
import { sessionRow } from "./support/db";
import { blockMainThread, INSPECTABLE } from "./support/inspector";

const start = { topic: "closures", energy: 5, agent: "tutor", transport: "pty" };
const LEASE_SECONDS = 4;

const servers: StartedServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop().catch(() => undefined)));
});

/** A server with its own host id and data folder, on `database` (a SQLite file) when given. */
async function host(hostId: string, database?: string, env: Record<string, string> = {}): Promise<StartedServer> {
  const server = await startServer({
    env: { STUDYLOOP_HOST_ID: hostId, STUDYLOOP_LEASE_SECONDS: String(LEASE_SECONDS), STUDYLOOP_HEARTBEAT_SECONDS: "1", ...env },
    args: database ? ["--database", database] : [],
  });
  servers.push(server);
  return server;
}

async function startOn(request: APIRequestContext, server: StartedServer): Promise<string> {
  const started = await request.post(`${server.url}/api/session/start`, { data: start });
  expect(started.status()).toBe(201);
  return (await started.json()).session.id as string;
}

const stateOf = async (request: APIRequestContext, server: StartedServer) => (await request.get(`${server.url}/api/session/state`)).json();

test("one SQLite file, two hosts: live on B with A's link; End on B is carried out by A", async ({ request }) => {
  const a = await host("host-a");
  const b = await host("host-b", path.join(a.dataDir, "studyloop.db"));
  const id = await startOn(request, a);
  await expect.poll(() => tutorsOf(a).length).toBe(1);
  expect(sessionRow(a.dataDir, id).owner_host_id).toBe("host-a");

  const state = await stateOf(request, b);
  expect(state.verdict).toMatchObject({ kind: "live-elsewhere" });
  expect(state.session.owner.url).toBe(a.url);
  expect((await request.post(`${b.url}/api/session/start`, { data: start })).status()).toBe(409);

  const asked = await request.post(`${b.url}/api/session/end`);
  expect(asked.status()).toBe(202);
  expect((await asked.json()).endingOn.url).toBe(a.url);
  await expect.poll(() => tutorsOf(a).length).toBe(0);
  await expect.poll(async () => (await stateOf(request, b)).state).toBe("ended");
  expect(sessionRow(a.dataDir, id)).toMatchObject({ end_reason: "ended-by-learner", owner_generation: 1, live_slot: null });
  expect(a.output()).toMatch(/ending it as asked from/);
});

test("one SQLite file, two hosts: kill -9 A, and B ends its session once the lease lapses, at A's last heartbeat", async ({ request }) => {
  const a = await host("host-a");
  const b = await host("host-b", path.join(a.dataDir, "studyloop.db"));
  const id = await startOn(request, a);
  await expect.poll(() => sessionRow(a.dataDir, id).heartbeat_at !== null).toBe(true);
  await a.kill9();
  const lastBeat = sessionRow(a.dataDir, id).heartbeat_at;
  // The other host's verdict: live elsewhere while the lease holds (a pid on another host proves nothing).
  await expect.poll(async () => (await stateOf(request, b)).lastEnded?.id, { timeout: 30_000 }).toBe(id);
  expect((await stateOf(request, b)).lastEnded).toMatchObject({ endReason: "server-stopped" });
  expect(sessionRow(a.dataDir, id)).toMatchObject({ ended_at: lastBeat, end_reason: "server-stopped", owner_generation: 2 });
  expect((b.output().match(new RegExp(`Session ${id} ended on read`, "g")) ?? []).length).toBe(1);
  // B may start the next session at once.
  await startOn(request, b);
});

test("a main thread held past the lease: the session survives on its host, and another host sees it live", async ({ request }) => {
  const a = await host("host-a", undefined, INSPECTABLE);
  const b = await host("host-b", path.join(a.dataDir, "studyloop.db"));
  const id = await startOn(request, a);
  await expect.poll(() => tutorsOf(a).length).toBe(1);
  const tutor = tutorsOf(a)[0];
  const before = Date.now();
  // Both at once: A's main thread held 1.5 leases long while B reads the row over and over.
  const reads: string[] = [];
  const blocked = blockMainThread(a, LEASE_SECONDS * 1_500);
  while (Date.now() - before < LEASE_SECONDS * 1_500) {
    const state = await stateOf(request, b);
    reads.push(state.verdict?.kind ?? `${state.state}: ${state.lastEnded?.explanation ?? ""}`);
  }
  await blocked;
  expect(new Set(reads)).toEqual(new Set(["live-elsewhere"]));
  // The lease thread renewed during the block; the session goes on, with the same tutor.
  expect(Date.parse(`${sessionRow(a.dataDir, id).heartbeat_at}`)).toBeGreaterThan(before + 1_000);
  // A keep-alive connection this client opened before may close as A's own timers catch up: retried.
  await expect.poll(async () => (await stateOf(request, a).catch(() => ({ state: "unreachable" }))).state).toBe("focus");
  expect(sessionRow(a.dataDir, id)).toMatchObject({ ended_at: null, owner_generation: 1 });
  expect(tutorsOf(a)).toEqual([tutor]);
  expect(a.output()).not.toMatch(/could not renew its lease/);
});

test("a main thread held past the lease while another host asks to end: the End is carried out once it runs", async ({ request }) => {
  const a = await host("host-a", undefined, INSPECTABLE);
  const b = await host("host-b", path.join(a.dataDir, "studyloop.db"));
  const id = await startOn(request, a);
  await expect.poll(() => tutorsOf(a).length).toBe(1);
  const blocked = blockMainThread(a, LEASE_SECONDS * 1_500);
  const asked = await request.post(`${b.url}/api/session/end`);
  expect(asked.status()).toBe(202);
  await blocked;
  await expect.poll(() => tutorsOf(a).length).toBe(0);
  expect(sessionRow(a.dataDir, id)).toMatchObject({ end_reason: "ended-by-learner", owner_generation: 1 });
});
