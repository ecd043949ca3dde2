// CLI sessions in real tmux (a private tmux server per run), seen and reached from the web.
import { test, expect } from "@playwright/test";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, makeDataDir, startServer, type StartedServer } from "./support/server";
import { sessionRow, withDb } from "./support/db";
import { open, watchProblems } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

const SOCKET = `studyloop-e2e-${process.pid}`;
const env = { ...process.env, STUDYLOOP_TMUX_SOCKET: SOCKET, STUDYLOOP_HEARTBEAT_SECONDS: "1" };

function studyloop(args: string[], extraEnv: Record<string, string> = {}) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin", "studyloop.js"), ...args], {
    encoding: "utf8",
    env: { ...env, ...extraEnv },
    timeout: 60_000,
  });
}
function tmux(...args: string[]) {
  return spawnSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
}
function openRow(dataDir: string) {
  return withDb(
    dataDir,
    (db) => db.prepare("SELECT * FROM study_sessions ORDER BY started_at DESC LIMIT 1").get() as Record<string, unknown>,
  );
}

let server: StartedServer;
let dataDir: string;
test.beforeAll(async () => {
  dataDir = makeDataDir();
  server = await startServer({ dataDir, env: { STUDYLOOP_TMUX_SOCKET: SOCKET } });
});
test.afterAll(async () => {
  await server.stop();
  tmux("kill-server");
});
test.afterEach(async ({ request }) => {
  await request.post(`${server.url}/api/session/end`);
});

test("studyloop study --detach: the web sees it live, opens it in the browser, and typing reaches it", async ({ page, request }) => {
  const started = studyloop(["study", "closures in tmux", "--agent", "tutor", "--energy", "4", "--detach", "--data-dir", dataDir]);
  expect(started.status, started.stderr).toBe(0);
  const row = openRow(dataDir);
  expect(row).toMatchObject({ transport: "tmux", status: "live", topic: "closures in tmux" });
  expect(String(row.mux_session)).toMatch(/^study-closures-in-tmux-[0-9a-f]{8}$/);
  expect(tmux("has-session", "-t", `=${row.mux_session}`).status).toBe(0);

  const state = await (await request.get(`${server.url}/api/session/state`)).json();
  expect(state.state).toBe("focus");
  expect(state.verdict).toMatchObject({ kind: "live-elsewhere" });
  expect(state.attach).toMatchObject({ transport: "tmux", sessionId: row.id });

  await open(page, `${server.url}/study`);
  await expect(page.getByTestId("tmux-session")).toContainText(String(row.mux_session));
  await page.getByRole("button", { name: "Open in browser" }).click();
  await expect(page.getByTestId("console-status")).toHaveText("live");
  await expectTerminalToContain(page, "tutor>");
  await typeInTerminal(page, "hello from the browser\r");
  await expectTerminalToContain(page, "you said: hello from the browser");
  await expect.poll(() => tmux("capture-pane", "-p", "-t", `=${row.mux_session}:`).stdout).toContain("you said: hello from the browser");
  await page.screenshot({ path: test.info().outputPath("tmux-in-browser.png") });
  // A reload of this tab shows the terminal again without asking; another device still asks first.
  await page.reload();
  await expect(page.getByTestId("console-status")).toHaveText("live");
  await expectTerminalToContain(page, "you said: hello from the browser");
  await expect(page.getByTestId("tmux-session")).toHaveCount(0);
  const other = await page.context().browser()!.newPage();
  await open(other, `${server.url}/study`);
  await expect(other.getByRole("button", { name: "Open in browser" })).toBeVisible();
  await other.close();

  // A web start while the CLI session is live: 409 naming it.
  const refused = await request.post(`${server.url}/api/session/start`, { data: { topic: "web", energy: 5, agent: "tutor" } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error).toContain(String(row.mux_session));

  // Ending from the web closes the tmux session and writes the summary.
  await request.post(`${server.url}/api/session/end`);
  const ended = sessionRow(dataDir, String(row.id));
  expect(ended.end_reason).toBe("ended-by-learner");
  expect(JSON.parse(String(ended.summary))).toHaveProperty("durationMinutes");
  expect(String(ended.transcript)).toContain("you said: hello from the browser");
  await expect.poll(() => tmux("has-session", "-t", `=${row.mux_session}`).status).not.toBe(0);
});

test("tmux kill-session: the next read ends it as tmux-gone and the open page explains", async ({ page, request }) => {
  expect(studyloop(["study", "fragile", "--agent", "tutor", "--detach", "--data-dir", dataDir]).status).toBe(0);
  const row = openRow(dataDir);
  await expect.poll(() => sessionRow(dataDir, String(row.id)).heartbeat_at).not.toBe(row.heartbeat_at);
  await open(page, `${server.url}/study`);
  await page.getByRole("button", { name: "Open in browser" }).click();
  await expectTerminalToContain(page, "tutor>");

  tmux("kill-session", "-t", `=${row.mux_session}`);
  await expect(page.getByTestId("ended-explanation")).toContainText("The tmux session that ran this study session closed");
  const state = await (await request.get(`${server.url}/api/session/state`)).json();
  expect(state.lastEnded).toMatchObject({ id: row.id, endReason: "tmux-gone" });
  // Whoever saw it first wrote it (the wrapper tmux hung up, or the next read): one reason, and an
  // end no earlier than the last heartbeat, so no study time is invented or lost.
  const ended = sessionRow(dataDir, String(row.id));
  expect(ended.end_reason).toBe("tmux-gone");
  expect(ended.exit_code).toBeNull();
  expect(Date.parse(String(ended.ended_at))).toBeGreaterThanOrEqual(Date.parse(String(ended.heartbeat_at)));
});

test("killing the whole tmux server while the page shows the session switches it to the explanation", async ({ page }) => {
  expect(studyloop(["study", "server dies", "--agent", "tutor", "--detach", "--data-dir", dataDir]).status).toBe(0);
  await open(page, `${server.url}/study`);
  await expect(page.getByTestId("tmux-session")).toBeVisible();
  tmux("kill-server");
  await expect(page.getByTestId("ended-explanation")).toContainText("The tmux session that ran this study session closed", {
    timeout: 15_000,
  });
});

test("the agent in tmux parks a thought and marks a win with no server involved; the web shows them", async ({ request }) => {
  expect(studyloop(["study", "parking in tmux", "--agent", "tutor", "--detach", "--data-dir", dataDir]).status).toBe(0);
  const row = openRow(dataDir);
  await expect.poll(() => tmux("capture-pane", "-p", "-t", `=${row.mux_session}:`).stdout).toContain("tutor>");
  tmux("send-keys", "-t", `=${row.mux_session}:`, "park why does tmux keep running?", "Enter");
  await expect
    .poll(() => withDb(dataDir, (db) => db.prepare("SELECT text, source FROM parked_items WHERE session_id = ?").all(row.id)))
    .toEqual([{ text: "why does tmux keep running?", source: "agent" }]);
  tmux("send-keys", "-t", `=${row.mux_session}:`, "win detaching", "Enter");
  await expect.poll(() => sessionRow(dataDir, String(row.id)).win_count).toBe(1);
  const parking = await (await request.get(`${server.url}/api/parking`)).json();
  expect(JSON.stringify(parking)).toContain("why does tmux keep running?");
});

test("a CLI session is recorded: its page plays it with the tutor's marker, and search jumps there", async ({ page, request }) => {
  const errors = watchProblems(page);
  expect(studyloop(["study", "recorded in tmux", "--agent", "tutor", "--detach", "--data-dir", dataDir]).status).toBe(0);
  const row = openRow(dataDir);
  const cast = () => fs.readFileSync(path.join(dataDir, "sessions", String(row.id), "session.cast"), "utf8");
  await expect.poll(() => tmux("capture-pane", "-p", "-t", `=${row.mux_session}:`).stdout).toContain("tutor>");
  tmux("send-keys", "-t", `=${row.mux_session}:`, "pangolin-77 before the end", "Enter");
  await expect.poll(() => tmux("capture-pane", "-p", "-t", `=${row.mux_session}:`).stdout).toContain("you said: pangolin-77");
  // The tutor parks a thought from inside the pane (no server involved): a marker on the recording.
  tmux("send-keys", "-t", `=${row.mux_session}:`, "park what about tail calls?", "Enter");
  await expect.poll(cast, { timeout: 15_000 }).toContain('"m","parked: what about tail calls?"');
  expect(cast()).toContain("you said: pangolin-77 before the end");

  // Ended from the web: tmux closes the pane, the recorder writes the end and indexes the last screen.
  await request.post(`${server.url}/api/session/end`);
  await expect.poll(cast, { timeout: 30_000 }).toContain('"m","ended"');
  await expect.poll(() => fs.existsSync(path.join(dataDir, "sessions", String(row.id), "recorder.json")), { timeout: 30_000 }).toBe(false);
  const hits = (await (await request.get(`${server.url}/api/search?q=pangolin-77`)).json()).hits as { kind: string; href: string }[];
  const hit = hits.find((h) => h.kind === "transcript");
  expect(hit?.href).toMatch(new RegExp(`^/sessions/${row.id}\\?t=`));

  await open(page, `${server.url}${hit!.href}`);
  const player = page.getByTestId("record-player");
  await expect(player.locator(".ap-player")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("chapters")).toContainText("parked: what about tail calls?");
  await expect(page.getByTestId("chapters")).toContainText(/ended · \d\d:\d\d/);
  await expect(player.locator(".ap-term")).toContainText("you said: pangolin-77 before the end", { timeout: 15_000 });
  await expect(page.getByTestId("text-transcript")).toContainText("you said: pangolin-77 before the end");
  await page.screenshot({ path: test.info().outputPath("tmux-recording.png"), fullPage: true });
  expect(errors).toEqual([]);
});

test("a CLI start while a web session is live is refused with the way to reach it", async ({ request }) => {
  const web = await request.post(`${server.url}/api/session/start`, { data: { topic: "web first", energy: 5, agent: "tutor" } });
  expect(web.status()).toBe(201);
  const before = withDb(dataDir, (db) => db.prepare("SELECT count(*) AS n FROM study_sessions").get());
  const cli = studyloop(["study", "cli second", "--agent", "tutor", "--detach", "--data-dir", dataDir]);
  expect(cli.status).toBe(2);
  expect(cli.stderr).toContain('A study session is already active: "web first"');
  expect(cli.stderr).toContain(server.url);
  expect(withDb(dataDir, (db) => db.prepare("SELECT count(*) AS n FROM study_sessions").get())).toEqual(before);
  const status = studyloop(["status", "--data-dir", dataDir]);
  expect(status.stdout).toContain('"web first"');
  expect(status.stdout).toContain("live-elsewhere");
});

test("without tmux installed: a clear message, exit 2, nothing written", () => {
  const emptyDir = fs.mkdtempSync("/tmp/studyloop-no-tmux-");
  const bin = fs.mkdtempSync("/tmp/studyloop-path-");
  fs.symlinkSync(process.execPath, path.join(bin, "node"));
  const result = studyloop(["study", "no tmux", "--agent", "tutor", "--data-dir", emptyDir], { PATH: bin });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain("tmux is not installed");
  expect(fs.readdirSync(emptyDir)).toEqual([]);
});
