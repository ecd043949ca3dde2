// The pages of the README's tour, at laptop (1280x800) and phone (390x844) size (issue 40): the
// replay's own controls (a tap on the position seeks, a speed choice), the dashboard's best moments
// within its topic filter, search highlights that pass contrast in dark mode (axe), "Skip to content"
// on every page, and the warm-up that shows a card the tutor just wrote without a reload. Every test
// fails on a page or console error; screenshots are kept in the test's output folder.
import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { makeDataDir } from "./support/server";
import { testServer } from "./support/test-server";
import { connect, Viewer } from "./support/socket";
import { LAPTOP_AND_PHONE as SIZES, open, watchedPage } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

const SHELL = { shell: { label: "Shell", command: "/bin/bash", args: ["--norc", "--noprofile", "-i"] } };
const server = testServer({ dataDir: makeDataDir(SHELL) });
/** The recorded session on "SQL lateral joins", about 6 s long. */
let joins: string;

/** A shell session on `topic` that prints `lines` a second apart, then ends. */
async function recordedSession(topic: string, lines: readonly string[]): Promise<string> {
  const res = await fetch(`${server.url}/api/session/start`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ topic, energy: 5, agent: "shell", transport: "pty" }),
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { session: { id: string } }).session.id;
  const viewer = new Viewer(await connect(server.url), id);
  await viewer.attach();
  viewer.input("PS1='$ '\r");
  await viewer.waitFor(/\$ $/);
  // The end is a sum the shell works out, so its typed line (echoed) does not count as seen.
  viewer.input(`for w in ${lines.join(" ")}; do echo "said: $w"; sleep 1; done; echo all-said-$((40+2))\r`);
  await viewer.waitFor("all-said-42", 30_000);
  viewer.socket.close();
  await fetch(`${server.url}/api/session/end`, { method: "POST", headers: { origin: server.url } });
  return id;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  joins = await recordedSession("SQL lateral joins", ["lateral-one", "lateral-two", "lateral-three", "join-four", "join-five"]);
  await recordedSession("Recursion", ["base-case", "recursive-step"]);
  // Both transcripts indexed (after End answered: learning-record.ts).
  for (const q of ["lateral-three", "recursive-step"]) {
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/api/search?q=${q}`)).json()) as { hits: unknown[] }).hits.length, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
  }
});

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

/** Seconds shown by our controls' time ("00:03 / 00:06" is 3). */
async function shownSeconds(page: Page): Promise<number> {
  const [m, s] = ((await page.getByTestId("player-time").textContent()) ?? "").split(" / ")[0]!.split(":").map(Number);
  return m! * 60 + s!;
}

for (const size of SIZES) {
  test(`the replay has its own controls: a tap on the position seeks, and a speed (${size.name})`, async ({ browser }) => {
    const { page, check } = await watchedPage(browser, size.options);
    await open(page, `${server.url}/sessions/${joins}`);
    const controls = page.getByTestId("player-controls");
    await controls.scrollIntoViewIfNeeded();
    await expect(page.getByTestId("record-player")).toHaveAttribute("data-ready", "yes", { timeout: 15_000 });
    await expect(page.getByTestId("player-time")).toHaveText(/^00:00 \/ 00:0[5-9]$/);
    for (const control of [page.getByTestId("player-play"), page.getByTestId("player-seek"), page.getByTestId("player-speed")]) {
      await expect(control).toBeInViewport();
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(size.options.isMobile ? 40 : 20);
    }
    // A tap (or click) on the position, about two thirds along, moves the player there.
    const seek = page.getByTestId("player-seek");
    const box = (await seek.boundingBox())!;
    const at = { x: box.width * 0.67, y: box.height / 2 };
    if (size.options.hasTouch) await seek.tap({ position: at });
    else await seek.click({ position: at });
    await expect.poll(() => shownSeconds(page)).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId("record-player").locator(".ap-term")).toContainText("lateral-three");
    await shot(page, `replay-seeked-${size.name}`);
    // Twice as fast, from where it was: a new player at the same moment, and it plays.
    await page.getByTestId("player-speed").selectOption("2");
    await expect(page.getByTestId("record-player")).toHaveAttribute("data-speed", "2");
    await expect(page.getByTestId("record-player")).toHaveAttribute("data-ready", "yes");
    expect(await shownSeconds(page)).toBeGreaterThanOrEqual(3);
    await page.getByTestId("player-play").click();
    await expect(page.getByTestId("player-play")).toHaveText("Pause");
    await expect(page.getByTestId("record-player").locator(".ap-term")).toContainText("all-said-42", { timeout: 15_000 });
    await expect(page.getByTestId("player-play")).toHaveText("Play", { timeout: 15_000 });
    await shot(page, `replay-ended-2x-${size.name}`);
    check();
  });

  test(`the dashboard's best moments keep to the topic filter (${size.name})`, async ({ browser }) => {
    const { page, check } = await watchedPage(browser, size.options);
    // The case: no session on the topic matches, and no moment is listed either.
    await open(page, `${server.url}/?${new URLSearchParams({ topic: "Recursion", q: "lateral" })}`);
    await expect(page.getByTestId("history-empty")).toContainText("No session matches the topic “Recursion” and “lateral”");
    await expect(page.getByRole("heading", { name: "Best matching moments" })).toHaveCount(0);
    await page.getByRole("search", { name: "Find sessions" }).scrollIntoViewIfNeeded();
    await shot(page, `dashboard-recursion-lateral-${size.name}`);
    await open(page, `${server.url}/?${new URLSearchParams({ topic: "SQL lateral joins", q: "said" })}`);
    await expect(page.getByRole("heading", { name: "Best matching moments" })).toBeVisible();
    await page.getByRole("heading", { name: "Best matching moments" }).scrollIntoViewIfNeeded();
    await shot(page, `dashboard-joins-said-${size.name}`);
    const topics = await page.getByTestId("search-hits").getByTestId("search-hit").locator("strong").allTextContents();
    expect(topics.length).toBeGreaterThan(0);
    expect(new Set(topics)).toEqual(new Set(["SQL lateral joins"]));
    await expect(page.getByTestId("history")).toContainText("SQL lateral joins");
    await expect(page.getByTestId("history")).not.toContainText("Recursion");
    await page.getByRole("link", { name: /Every match for “said” on SQL lateral joins/ }).click();
    await expect(page.getByTestId("search-topic")).toContainText("SQL lateral joins");
    expect(new Set(await page.getByTestId("search-hit").locator("strong").allTextContents())).toEqual(new Set(["SQL lateral joins"]));
    check();
  });

  test(`search highlights pass contrast in dark mode and light (${size.name})`, async ({ browser }) => {
    for (const colorScheme of ["dark", "light"] as const) {
      const { page, check } = await watchedPage(browser, { ...size.options, colorScheme });
      await open(page, `${server.url}/search?q=lateral`);
      await expect(page.getByTestId("search-hits").locator("mark").first()).toHaveText(/lateral/i);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      await shot(page, `search-${colorScheme}-${size.name}`);
      check();
      await page.context().close();
    }
  });

  test(`"Skip to content" is the first stop of Tab on every page (${size.name})`, async ({ browser }) => {
    const { page, check } = await watchedPage(browser, { ...size.options, hasTouch: false });
    for (const path of ["/", "/study", "/review", "/parking", "/devices", "/search?q=lateral", `/sessions/${joins}`]) {
      await open(page, `${server.url}${path}`);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip, path).toBeFocused();
      await expect(skip, path).toBeInViewport();
      if (path === "/") await shot(page, `skip-link-${size.name}`);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { message: path }).toBe("content");
    }
    check();
  });

  test(`the warm-up shows a card the tutor just wrote, without a reload (${size.name})`, async ({ browser }) => {
    const { page, check } = await watchedPage(browser, size.options);
    const topic = `warm-ups ${size.name}`;
    const res = await page.request.post(`${server.url}/api/session/start`, { data: { topic, energy: 5, agent: "tutor" } });
    expect(res.status(), await res.text()).toBe(201);
    await open(page, `${server.url}/study`);
    await expectTerminalToContain(page, "tutor>");
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    if (size.options.isMobile) await page.getByTestId("panel-toggle").click();
    await expect(page.getByTestId("warm-up")).toHaveCount(0);
    if (size.options.isMobile) await page.getByTestId("panel-toggle").click();
    await typeInTerminal(page, `card What does a warm-up show?|The cards due on the topic|${topic}\r`);
    await expectTerminalToContain(page, `Card added to "${topic}"`);
    if (size.options.isMobile) await page.getByTestId("panel-toggle").click();
    const warmUp = page.getByTestId("warm-up");
    await expect(warmUp).toContainText(`Warm-up: 1 of 1 due card on ${topic}`);
    await expect(warmUp.getByTestId("card-front")).toHaveText("What does a warm-up show?");
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    await shot(page, `warm-up-live-${size.name}`);
    // Reviewed there, it counts down; the summary stays.
    await warmUp.getByTestId("reveal").click();
    await warmUp.getByRole("button", { name: /Good/ }).click();
    await expect(warmUp).toContainText("nothing more is due");
    await expect(warmUp.getByTestId("review-done")).toContainText("Done: 1 card reviewed");
    check();
  });
}
