// The session page plays the recording (asciinema-player, bundled, under the page's CSP), shows the
// markers as chapters and on the player's timeline, opens at ?t=, shows the text transcript and offers
// the exports; the dashboard's search lists moments that jump there. Desktop and phone sizes.
import { spawn } from "node:child_process";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { makeDataDir, ROOT, startServer, type StartedServer } from "./support/server";
import { connect, Viewer } from "./support/socket";
import { open, watchProblems } from "./support/page";

const SHELL = { shell: { label: "Shell", command: "/bin/bash", args: ["--norc", "--noprofile", "-i"] } };
const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];

let server: StartedServer;
let id: string;
/** Seconds into the recording at which the word was on screen (from the search). */
let wordAt: number;

const watchErrors = (page: Page): string[] => watchProblems(page);

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  server = await startServer({ dataDir: makeDataDir(SHELL) });
  const res = await request.post(`${server.url}/api/session/start`, {
    data: { topic: "recursion drills", energy: 6, agent: "shell", transport: "pty" },
  });
  expect(res.status()).toBe(201);
  id = (await res.json()).session.id;
  const viewer = new Viewer(await connect(server.url), id);
  await viewer.attach();
  viewer.input("PS1='$ '\r");
  await viewer.waitFor(/\$ $/);
  viewer.input("echo aardwolf-$((40+2)) printed before the clear\r");
  await viewer.waitFor("aardwolf-42 printed before the clear");
  await new Promise((r) => setTimeout(r, 600));
  expect((await request.post(`${server.url}/api/session/topics`, { data: { topic: "recursion", status: "struggling" } })).status()).toBe(
    201,
  );
  await new Promise((r) => setTimeout(r, 600));
  viewer.input("clear; seq 1 300\r");
  await viewer.waitFor(/\n300\r\n/);
  expect((await request.post(`${server.url}/api/parking`, { data: { text: "tail calls?" } })).status()).toBe(201);
  await new Promise((r) => setTimeout(r, 600));
  viewer.socket.close();
  expect((await request.post(`${server.url}/api/session/end`)).status()).toBe(200);
  // The recording's last stretch is indexed after End has answered (learning-record.ts: on "ended"),
  // so a busy machine may need a moment before the search has it.
  let hit: { kind: string; href: string } | undefined;
  await expect
    .poll(
      async () => {
        const hits = (await (await request.get(`${server.url}/api/search?q=aardwolf-42`)).json()).hits as { kind: string; href: string }[];
        hit = hits.find((h) => h.kind === "transcript");
        return hit?.href;
      },
      { timeout: 30_000 },
    )
    .toMatch(new RegExp(`^/sessions/${id}\\?t=`));
  wordAt = Number(new URL(hit!.href, server.url).searchParams.get("t"));
});

test.afterAll(async () => {
  await server?.stop();
});

for (const size of SIZES) {
  test(`the session page replays the recording with its chapters (${size.name})`, async ({ page }) => {
    await page.setViewportSize(size.viewport);
    const errors = watchErrors(page);
    await open(page, `${server.url}/sessions/${id}`);
    const player = page.getByTestId("record-player");
    await expect(player.locator(".ap-player")).toBeVisible({ timeout: 15_000 });
    // Markers from the recording: chapters below the player and marks on its progress bar.
    const chapters = page.getByTestId("chapters");
    await expect(chapters).toContainText(/struggling: recursion · 00:\d\d/);
    await expect(chapters).toContainText("parked: tail calls?");
    await expect(chapters).toContainText(/ended · \d\d:\d\d/);
    // On the progress bar: the markers within the recording's output (the player leaves out "ended", after its last frame).
    await expect.poll(() => player.locator(".ap-marker-container").count()).toBeGreaterThanOrEqual(2);
    // The text transcript keeps what `clear` erased; the summary and timeline are beside it.
    const transcript = page.getByTestId("text-transcript");
    await expect(transcript).toContainText("aardwolf-42 printed before the clear");
    await expect(transcript).toContainText("299");
    await expect(page.getByTestId("timeline")).toContainText("recursion");
    await expect(page.getByTestId("downloads").getByRole("link", { name: /Markdown/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`session-${size.name}.png`), fullPage: true });
    // A chapter moves the player there.
    await chapters.getByRole("link", { name: /struggling: recursion/ }).click();
    await expect(page).toHaveURL(/\?t=\d+(\.\d{1,3})?$/);
    expect(errors).toEqual([]);
  });

  test(`a search on the dashboard jumps to the moment, and the player shows it (${size.name})`, async ({ page }) => {
    await page.setViewportSize(size.viewport);
    const errors = watchErrors(page);
    await open(page, `${server.url}/?q=${encodeURIComponent("aardwolf")}`);
    const hit = page.getByTestId("search-hits").getByTestId("search-hit").first();
    await expect(hit).toContainText("recursion drills");
    await expect(page.getByTestId("search-hits").locator("mark").first()).toHaveText(/aardwolf/i);
    await page.screenshot({ path: test.info().outputPath(`search-${size.name}.png`), fullPage: true });
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${id}\\?t=${String(wordAt).replace(".", "\\.")}$`));
    // Opened at that moment: the player's screen shows the word that `clear` later erased.
    await expect(page.getByTestId("record-player").locator(".ap-term")).toContainText("aardwolf-42 printed before the clear", {
      timeout: 15_000,
    });
    await page.screenshot({ path: test.info().outputPath(`moment-${size.name}.png`) });
    expect(errors).toEqual([]);
  });
}

test("the exports: Markdown, the .cast file and the text transcript", async ({ request }) => {
  const md = await request.get(`${server.url}/api/sessions/${id}/markdown`);
  expect(md.headers()["content-disposition"]).toMatch(/attachment; filename="studyloop-.*\.md"/);
  const text = await md.text();
  expect(text).toContain("# recursion drills");
  expect(text).toContain("struggling: recursion");
  expect(text).toContain("tail calls?");
  expect(text).toContain("aardwolf-42 printed before the clear");
  const cast = await request.get(`${server.url}/api/sessions/${id}/cast?download=1`);
  expect(cast.headers()["content-type"]).toContain("application/x-asciicast");
  const lines = (await cast.text()).trim().split("\n");
  expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2, width: 80, height: 24 });
  expect(lines.slice(1).map((l) => JSON.parse(l)[1])).toContain("m");
  const txt = await request.get(`${server.url}/api/sessions/${id}/transcript`);
  expect(await txt.text()).toContain("aardwolf-42 printed before the clear");
  expect((await request.get(`${server.url}/api/sessions/00000000-0000-0000-0000-000000000000/cast`)).status()).toBe(404);
  expect((await request.get(`${server.url}/api/search?q=`)).status()).toBe(400);
});

test("a chat (ACP) session gets the same markers, in a markers-only recording", async ({ request }) => {
  const res = await request.post(`${server.url}/api/session/start`, {
    data: { topic: "chat markers", energy: 5, agent: "tutor", transport: "acp" },
  });
  expect(res.status()).toBe(201);
  const chat = (await res.json()).session.id as string;
  expect((await request.post(`${server.url}/api/session/topics`, { data: { topic: "closures", status: "win" } })).status()).toBe(201);
  await expect
    .poll(async () => (await (await request.get(`${server.url}/api/sessions/${chat}/cast`)).text()).includes('"win: closures"'))
    .toBe(true);
  expect((await request.post(`${server.url}/api/session/end`)).status()).toBe(200);
  await expect
    .poll(async () => (await (await request.get(`${server.url}/api/sessions/${chat}/cast`)).text()).includes('"m","ended"'))
    .toBe(true);
  const events = (await (await request.get(`${server.url}/api/sessions/${chat}/cast`)).text())
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l));
  expect(events.map((e) => e[1])).toEqual(["m", "m"]);
});

test("Prisma Studio still opens the database, search index and all", async ({ page }) => {
  const port = 5600 + Math.floor(Math.random() * 300);
  const studio = spawn(
    path.join(ROOT, "node_modules", ".bin", "prisma"),
    ["studio", "--url", `file://${path.join(server.dataDir, "studyloop.db")}`, "--port", String(port), "--browser", "none"],
    {
      cwd: ROOT,
      stdio: "ignore",
    },
  );
  try {
    const errors = watchErrors(page);
    await expect.poll(async () => (await fetch(`http://localhost:${port}`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
    await page.goto(`http://localhost:${port}`);
    await page.getByText("search_docs", { exact: true }).click();
    await expect(page.getByText("recursion drills").first()).toBeVisible({ timeout: 30_000 });
    await page.getByText("study_sessions", { exact: true }).click();
    await expect(page.getByText("agent_session_id", { exact: true })).toBeVisible({ timeout: 30_000 });
    // Studio asks the internet for updates (offline here); nothing else may fail.
    expect(errors.filter((e) => !/ERR_NAME_NOT_RESOLVED|Failed to fetch/.test(e))).toEqual([]);
  } finally {
    studio.kill();
  }
});
