// The session core seen from the pages: a server that goes away (kill -9, SIGTERM) on open desktop
// and phone pages, coming back with the verdict, "Continue this session", an agent that fails at
// start, and a paused session kept with no page open. Real servers, real agents, real Chromium.
import fs from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { makeDataDir, startServer, TEST_TUTOR, type StartedServer } from "./support/server";
import { sessionRow, withDb } from "./support/db";
import { hydrated, watchProblems } from "./support/page";
import { expectTerminalToContain } from "./support/terminal";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const start = { topic: "closures", energy: 5, agent: "tutor", transport: "pty" };

/**
 * Page errors and console errors fail the test. The browser's own network lines while the server is
 * down ("Failed to load resource: net::ERR_CONNECTION_REFUSED", a WebSocket that could not connect)
 * are not the page's: no script can prevent them, and they are what "the server is away" looks like.
 */
function watch(page: Page, problems: string[], name: string): void {
  const awayServer = /net::ERR_|WebSocket connection to .* failed|Failed to load resource/i;
  watchProblems(page, { label: name, expected: (msg) => awayServer.test(msg.text()) }, problems);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

interface Viewers {
  readonly pages: { name: string; study: Page; dashboard: Page }[];
  readonly contexts: BrowserContext[];
  readonly problems: string[];
}

async function openViewers(browser: Browser, url: string): Promise<Viewers> {
  const problems: string[] = [];
  const contexts = [await browser.newContext({ viewport: { width: 1280, height: 800 } }), await browser.newContext(PHONE)];
  const pages = [];
  for (const [i, context] of contexts.entries()) {
    const name = i === 0 ? "desktop" : "phone";
    const study = await context.newPage();
    const dashboard = await context.newPage();
    watch(study, problems, `${name} study`);
    watch(dashboard, problems, `${name} dashboard`);
    await study.goto(`${url}/study`);
    await hydrated(study);
    await expectTerminalToContain(study, "tutor>");
    await dashboard.goto(url);
    await hydrated(dashboard);
    await expect(dashboard.getByTestId("live-badge")).toHaveText("live");
    pages.push({ name, study, dashboard });
  }
  return { pages, contexts, problems };
}

/**
 * Every page says the server is away. After kill -9 the live view stays, dimmed and inert, its timer
 * stopped; after SIGTERM the server told the pages the session ended before it went, so they show
 * that, and that the server is away.
 */
async function expectAway(v: Viewers, label: string, endedFirst: RegExp | null): Promise<void> {
  for (const { name, study, dashboard } of v.pages) {
    await expect(study.getByTestId("server-away")).toContainText(/StudyLoop is not reachable since \d\d:\d\d/, { timeout: 15_000 });
    if (endedFirst) {
      await expect(study.getByTestId("ended-explanation")).toContainText(endedFirst);
    } else {
      await expect(study.getByTestId("server-away")).toContainText("your session may have ended");
      await expect(study.getByTestId("study-main")).toHaveAttribute("inert", "");
      // The timer has stopped: it reads the same now and a while later.
      const before = await study.getByTestId("focus-time").textContent();
      await study.waitForTimeout(1_500);
      await expect(study.getByTestId("focus-time")).toHaveText(before!);
    }
    await expect(dashboard.getByTestId("live-card")).toHaveAttribute("data-state", "unreachable", { timeout: 15_000 });
    await expect(dashboard.getByText("StudyLoop is not reachable since")).toBeVisible();
    await expect(dashboard.locator('[data-testid="live-badge"]', { hasText: /^live$/ })).toHaveCount(0);
    await shot(study, `${label}-${name}-study-away`);
    await shot(dashboard, `${label}-${name}-dashboard-away`);
  }
}

async function expectVerdict(v: Viewers, label: string, explanation: RegExp): Promise<void> {
  for (const { name, study, dashboard } of v.pages) {
    await expect(study.getByTestId("ended-explanation")).toContainText(explanation, { timeout: 30_000 });
    await expect(study.getByTestId("server-away")).toHaveCount(0);
    await expect(study.getByTestId("continue-session")).toBeVisible();
    await expect(dashboard.getByTestId("live-card")).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
    await shot(study, `${label}-${name}-study-back`);
  }
}

async function restartOnSamePort(dataDir: string, url: string, env: Record<string, string> = {}): Promise<StartedServer> {
  const port = new URL(url).port;
  return startServer({ dataDir, args: ["--port", port], env });
}

test.describe.configure({ timeout: 180_000 });

test("kill -9: open desktop and phone pages say the server is away; back, they show the verdict; Continue resumes the tutor in the same folder", async ({
  browser,
  request,
}) => {
  const dataDir = makeDataDir({
    tutor: { label: "Test tutor", command: process.execPath, args: [TEST_TUTOR], resumeArgs: [TEST_TUTOR, "--resumed"] },
  });
  const a = await startServer({ dataDir });
  const started = await request.post(`${a.url}/api/session/start`, { data: start });
  expect(started.status()).toBe(201);
  const id = (await started.json()).session.id as string;
  const v = await openViewers(browser, a.url);
  let b: StartedServer | undefined;
  try {
    await a.kill9();
    await expectAway(v, "kill9", null);
    b = await restartOnSamePort(dataDir, a.url);
    await expectVerdict(v, "kill9", /The StudyLoop server that ran this session stopped at/);

    // Continue from the desktop page: a new session in the same folder, with the resume arguments.
    const desktop = v.pages[0]!.study;
    await desktop.getByTestId("continue-session").click();
    const continued = () =>
      withDb(dataDir, (db) =>
        db.prepare("SELECT continued_from_id, status FROM study_sessions WHERE continued_from_id IS NOT NULL").get(),
      ) ?? null;
    await expect.poll(continued, { timeout: 20_000 }).toEqual({ continued_from_id: id, status: "live" });
    await expect(desktop.getByTestId("terminal")).toBeVisible();
    await expect(desktop.getByTestId("console-status")).toHaveText("live", { timeout: 20_000 });
    const agent = fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .find((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").includes("--resumed");
        } catch {
          return false;
        }
      });
    expect(agent).toBeDefined();
    expect(fs.readlinkSync(`/proc/${agent}/cwd`)).toBe(path.join(dataDir, "sessions", id));
    await shot(desktop, "kill9-desktop-continued");
    expect(v.problems).toEqual([]);
  } finally {
    for (const c of v.contexts) await c.close();
    await request.post(`${(b ?? a).url}/api/session/end`).catch(() => undefined);
    await b?.stop();
  }
});

test("SIGTERM: the server exits promptly; open pages say so with no uncaught error, then show the verdict", async ({
  browser,
  request,
}) => {
  const dataDir = makeDataDir();
  const a = await startServer({ dataDir });
  const id = (await (await request.post(`${a.url}/api/session/start`, { data: start })).json()).session.id as string;
  const v = await openViewers(browser, a.url);
  let b: StartedServer | undefined;
  try {
    expect(await a.stop()).toBe(0);
    expect(sessionRow(dataDir, id)).toMatchObject({ status: "ended", end_reason: "server-shutdown" });
    await expectAway(v, "sigterm", /StudyLoop was shut down at \d\d:\d\d/);
    b = await restartOnSamePort(dataDir, a.url);
    await expectVerdict(v, "sigterm", /StudyLoop was shut down at \d\d:\d\d/);
    expect(v.problems).toEqual([]);
  } finally {
    for (const c of v.contexts) await c.close();
    await b?.stop();
  }
});

test("an agent that exits at once: the study page shows its last lines, the exit code, a next step and Try again", async ({
  page,
  request,
}) => {
  const problems: string[] = [];
  watch(page, problems, "study");
  const script =
    "console.log('╭' + '─'.repeat(60) + '╮'); console.log('Welcome to the tutor'); console.log('Unable to connect to Anthropic services'); setTimeout(() => process.exit(1), 200)";
  const server = await startServer({
    dataDir: makeDataDir({ offline: { label: "Offline tutor", command: process.execPath, args: ["-e", script] } }),
  });
  try {
    const res = await request.post(`${server.url}/api/session/start`, { data: { ...start, agent: "offline" } });
    expect(res.status()).toBe(201);
    await page.goto(`${server.url}/study`);
    await hydrated(page);
    const ended = page.getByTestId("ended-explanation");
    await expect(ended).toContainText(/exited with code 1 .* Its last lines are below: fix what they say/, { timeout: 15_000 });
    await expect(ended).toContainText("exit code 1");
    await expect(page.getByTestId("last-lines")).toContainText("Unable to connect to Anthropic services");
    await shot(page, "start-failure-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "start-failure-phone");
    // On a phone the box's edge keeps its one line (the block scrolls sideways) while sentences wrap.
    const lines = page.getByTestId("last-lines");
    expect(await lines.locator(".drawn").evaluate((el) => el.getClientRects().length)).toBe(1);
    expect(await lines.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    const before = withDb(server.dataDir, (db) => (db.prepare("SELECT count(*) AS n FROM study_sessions").get() as { n: number }).n);
    await page.getByTestId("try-again").click();
    await expect
      .poll(() => withDb(server.dataDir, (db) => (db.prepare("SELECT count(*) AS n FROM study_sessions").get() as { n: number }).n))
      .toBe(before + 1);
    await expect(page.getByTestId("last-lines")).toContainText("Unable to connect to Anthropic services", { timeout: 15_000 });
    expect(problems).toEqual([]);
  } finally {
    await server.stop();
  }
});

test("a paused session is kept with no page open past the grace window, and the dashboard says until when", async ({ page, request }) => {
  const server = await startServer({ env: { STUDYLOOP_GRACE_SECONDS: "2" } });
  try {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    await page.goto(`${server.url}/study`);
    await hydrated(page);
    await expectTerminalToContain(page, "tutor>");
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("kept-until")).toContainText(/kept until \d\d:\d\d, even with no page open/);
    await page.goto(`${server.url}/parking`);
    // Well past the 2 s grace: still live.
    await page.waitForTimeout(6_000);
    expect(sessionRow(server.dataDir, id)).toMatchObject({ status: "live", ended_at: null });
    await page.goto(server.url);
    await expect(page.getByTestId("kept-until")).toContainText(/On a break: kept until \d\d:\d\d/);
    await shot(page, "paused-dashboard");
    // Resumed and left again: grace runs as usual.
    await request.post(`${server.url}/api/session/timer`, { data: { action: "resume" } });
    await expect.poll(() => sessionRow(server.dataDir, id).end_reason, { timeout: 20_000 }).toBe("grace-expired");
  } finally {
    await server.stop();
  }
});

test("End while another program holds the database's write lock: a clear 503, nothing stopped; then End works, a start gets 201, and SIGTERM exits under a held lock", async ({
  request,
}) => {
  const dataDir = makeDataDir();
  const server = await startServer({ dataDir });
  let restarted: StartedServer | undefined;
  const hold = () => {
    const holder = new Database(path.join(dataDir, "studyloop.db"));
    holder.exec("BEGIN IMMEDIATE");
    return () => {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
    };
  };
  try {
    const id = (await (await request.post(`${server.url}/api/session/start`, { data: start })).json()).session.id as string;
    let release = hold();
    const refused = await request.post(`${server.url}/api/session/end`);
    // Reads go on meanwhile.
    const state = await request.get(`${server.url}/api/session/state`);
    release();
    expect(refused.status()).toBe(503);
    expect(refused.headers()["retry-after"]).toBe("5");
    expect((await refused.json()).error).toMatch(/^StudyLoop could not end the session: another program is holding the database locked/);
    expect(state.status()).toBe(200);
    expect((await state.json()).session).toMatchObject({ id, status: "live" });

    const ended = await request.post(`${server.url}/api/session/end`);
    expect(ended.status()).toBe(200);
    expect((await ended.json()).session).toMatchObject({ id, status: "ended", endReason: "ended-by-learner" });
    const next = await request.post(`${server.url}/api/session/start`, { data: start });
    expect(next.status()).toBe(201);
    const nextId = (await next.json()).session.id as string;

    // A clean stop does not wait on the database: it exits, and the next start settles the row.
    release = hold();
    expect(await server.stop()).toBe(0);
    release();
    restarted = await startServer({ dataDir });
    const after = await (await request.get(`${restarted.url}/api/session/state`)).json();
    expect(after.lastEnded).toMatchObject({ id: nextId, status: "ended" });
    // The shutdown's reason, kept outside the locked database and written by the next start (issue 42).
    expect(after.lastEnded.endReason).toBe("server-shutdown");
  } finally {
    await server.stop();
    await restarted?.stop();
  }
});
