// Several machines, one study history: StudyLoop servers with their own host ids (STUDYLOOP_HOST_ID)
// sharing ONE real PostgreSQL started by the test (server/db/test-postgres.ts). Real processes,
// killed for real, cut off from the database by a TCP proxy the test controls.
import { test, expect, type APIRequestContext, type Page } from "@playwright/test";
import pg from "pg";
import { watchProblems } from "./support/page";
import { startServer, tutorsOf, type StartedServer } from "./support/server";
import { postgresAvailable, testPostgresUrl } from "../server/db/test-postgres.ts";
import { startTcpProxy } from "../server/db/test-tcp-proxy.ts";

const start = { topic: "closures", energy: 5, agent: "tutor", transport: "pty" };
const LEASE_SECONDS = 4;

test.skip(!postgresAvailable(), "PostgreSQL's initdb is not installed here (CI installs it: there this cannot skip)");

const servers: StartedServer[] = [];
const pools: pg.Pool[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop().catch(() => undefined)));
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function host(hostId: string, database: string): Promise<StartedServer> {
  const server = await startServer({
    env: { STUDYLOOP_HOST_ID: hostId, STUDYLOOP_LEASE_SECONDS: String(LEASE_SECONDS), STUDYLOOP_HEARTBEAT_SECONDS: "1" },
    args: ["--database", database],
  });
  servers.push(server);
  return server;
}

function database(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return {
    row: async (id: string) =>
      (
        await pool.query<{
          ended_at: Date | null;
          heartbeat_at: Date | null;
          end_reason: string | null;
          owner_generation: number;
          owner_host_id: string | null;
          live_slot: number | null;
        }>(`SELECT ended_at, heartbeat_at, end_reason, owner_generation, owner_host_id, live_slot FROM study_sessions WHERE id = $1`, [id])
      ).rows[0]!,
    /** Has the lease lapsed by the DATABASE's clock (what every server judges by)? */
    lapsed: async (id: string) =>
      (
        await pool.query<{ lapsed: boolean }>(
          `SELECT (now() AT TIME ZONE 'UTC') - heartbeat_at > make_interval(secs => $2) AS lapsed FROM study_sessions WHERE id = $1`,
          [id, LEASE_SECONDS + 0.2],
        )
      ).rows[0]!.lapsed,
  };
}

async function startOn(request: APIRequestContext, server: StartedServer): Promise<string> {
  const started = await request.post(`${server.url}/api/session/start`, { data: start });
  expect(started.status()).toBe(201);
  return (await started.json()).session.id as string;
}

const collectErrors = (page: Page): string[] => watchProblems(page);

test("a session started on A is live on B with A's link; End on B stops A's agent", async ({ page, request }) => {
  const url = await testPostgresUrl();
  const a = await host("host-a", url);
  const b = await host("host-b", url);
  const db = database(url);
  const id = await startOn(request, a);
  await expect.poll(() => tutorsOf(a).length).toBe(1);
  expect((await db.row(id)).owner_host_id).toBe("host-a");

  const state = await (await request.get(`${b.url}/api/session/state`)).json();
  expect(state.verdict).toMatchObject({ kind: "live-elsewhere" });
  expect(state.session.owner.url).toBe(a.url);

  const errors = collectErrors(page);
  await page.goto(`${b.url}/study`);
  await expect(page.getByTestId("live-elsewhere")).toContainText("Live on");
  await expect(page.getByTestId("owner-link")).toHaveAttribute("href", `${a.url}/study`);
  await page.screenshot({ path: test.info().outputPath("live-on-a-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("live-on-a-390.png"), fullPage: true });

  // End on B: asked of A (202), carried out by A within a heartbeat; B's page follows.
  await page.getByRole("button", { name: "End this session" }).click();
  await expect(page.getByTestId("ended-explanation")).toContainText("You ended this session at");
  await expect.poll(() => tutorsOf(a).length).toBe(0);
  const row = await db.row(id);
  expect({ reason: row.end_reason, generation: row.owner_generation, slot: row.live_slot }).toEqual({
    reason: "ended-by-learner",
    generation: 1,
    slot: null,
  });
  expect(a.output()).toMatch(/ending it as asked from/);
  expect(errors).toEqual([]);
});

test("End on B answers 202 naming A", async ({ request }) => {
  const url = await testPostgresUrl();
  const a = await host("host-a", url);
  const b = await host("host-b", url);
  await startOn(request, a);
  const asked = await request.post(`${b.url}/api/session/end`);
  expect(asked.status()).toBe(202);
  const body = await asked.json();
  expect(body.endingOn.url).toBe(a.url);
  expect(body.message).toMatch(/^Ending it on .+: the server there stops the tutor within a few seconds\.$/);
  await expect.poll(async () => (await (await request.get(`${a.url}/api/session/state`)).json()).state).toBe("ended");
});

test("simultaneous starts on A and B give one 201 and one 409", async ({ request }) => {
  const url = await testPostgresUrl();
  const a = await host("host-a", url);
  const b = await host("host-b", url);
  const statuses = await Promise.all([a, b].map(async (s) => (await request.post(`${s.url}/api/session/start`, { data: start })).status()));
  expect(statuses.sort()).toEqual([201, 409]);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pools.push(pool);
  const open = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM study_sessions WHERE ended_at IS NULL");
  expect(open.rows[0]!.n).toBe(1);
});

test("kill -9 A: after the lease the others end it at A's last heartbeat, exactly once with three reading at once", async ({ request }) => {
  const url = await testPostgresUrl();
  const a = await host("host-a", url);
  const readers = [await host("host-b", url), await host("host-c", url), await host("host-d", url)];
  const db = database(url);
  const id = await startOn(request, a);
  await expect.poll(async () => (await db.row(id)).heartbeat_at !== null).toBe(true);
  await a.kill9();
  const lastBeat = (await db.row(id)).heartbeat_at!;
  // Live on the others while the lease is fresh...
  const fresh = await (await request.get(`${readers[0]!.url}/api/session/state`)).json();
  if (!(await db.lapsed(id))) expect(fresh.verdict?.kind).toBe("live-elsewhere");
  // ...then, once the database's clock says it lapsed, three hosts read at once.
  await expect.poll(() => db.lapsed(id), { timeout: 30_000 }).toBe(true);
  const states = await Promise.all(readers.map(async (r) => (await request.get(`${r.url}/api/session/state`)).json()));
  for (const s of states) expect(s.lastEnded).toMatchObject({ id, endReason: "server-stopped" });
  const row = await db.row(id);
  expect({ endedAt: row.ended_at, reason: row.end_reason, generation: row.owner_generation }).toEqual({
    endedAt: lastBeat,
    reason: "server-stopped",
    generation: 2,
  });
  const endedOnRead = readers.map((r) => (r.output().match(new RegExp(`Session ${id} ended on read`, "g")) ?? []).length);
  expect(endedOnRead.reduce((x, y) => x + y, 0)).toBe(1);
});

test("A cut from the database stops its own session, and never writes over B's end", async ({ request }) => {
  const url = await testPostgresUrl();
  const proxy = await startTcpProxy(Number(new URL(url).port));
  try {
    const a = await host("host-a", proxy.url(url));
    const b = await host("host-b", url);
    const db = database(url);
    const id = await startOn(request, a);
    await expect.poll(() => tutorsOf(a).length).toBe(1);
    await expect.poll(async () => (await db.row(id)).heartbeat_at !== null).toBe(true);

    await proxy.cut();
    await expect.poll(() => a.output(), { timeout: 30_000 }).toMatch(/could not renew its lease on the session for \d+ s/);
    await expect.poll(() => tutorsOf(a).length).toBe(0);
    const lastBeat = (await db.row(id)).heartbeat_at!;
    await expect
      .poll(async () => (await (await request.get(`${b.url}/api/session/state`)).json()).state, { timeout: 30_000 })
      .toBe("ended");
    expect(await db.row(id)).toMatchObject({ end_reason: "server-stopped", ended_at: lastBeat, owner_generation: 2 });

    await proxy.restore();
    // A reaches the database again, finds the row ended by B, and lets the session go.
    await expect
      .poll(async () => (await (await request.get(`${a.url}/api/session/state`)).json()).state, { timeout: 30_000 })
      .toBe("ended");
    expect(await db.row(id)).toMatchObject({ end_reason: "server-stopped", ended_at: lastBeat, owner_generation: 2 });
  } finally {
    await proxy.close();
  }
});
