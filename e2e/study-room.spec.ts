// The study page on real screens (issue 16): the tutor fills the window below the session bar at
// laptop and phone sizes with no page scroll; a due break covers the tutor on every device and
// changes the tab's title; the keyboard can leave the terminal and come back; a 200-character
// unbroken topic widens no page; every page passes axe with no serious violations.
import { test, expect, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { makeDataDir, startServer, type StartedServer } from "./support/server";
import { testServer } from "./support/test-server";
import { withDb } from "./support/db";
import { open, watchProblems } from "./support/page";
import { expectTerminalToContain, terminalText, typeInTerminal } from "./support/terminal";

interface Size {
  readonly name: string;
  readonly options: BrowserContextOptions;
}
const DESKTOP: Size = { name: "1280x800", options: { viewport: { width: 1280, height: 800 } } };
const SIZES: readonly Size[] = [
  DESKTOP,
  { name: "1440x900", options: { viewport: { width: 1440, height: 900 } } },
  { name: "390x844", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: "360x740", options: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } },
];
const PHONE = SIZES[2]!;

/** A page that records its errors and console errors; `check()` fails the test on any. */
async function watchedPage(browser: Browser, size: Size): Promise<{ page: Page; check: () => void }> {
  const context = await browser.newContext(size.options);
  const page = await context.newPage();
  const problems = watchProblems(page, {
    // The 404 page's own status is logged by the browser: that one is expected.
    expected: (msg) => /status of 404/.test(msg.text()) && /\/no-such-page$/.test(msg.location().url),
  });
  return { page, check: () => expect(problems, "page and console errors").toEqual([]) };
}

function shot(page: Page, name: string) {
  return page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

async function startSession(page: Page, url: string, topic: string, energy = 5): Promise<string> {
  const res = await page.request.post(`${url}/api/session/start`, { data: { topic, energy, agent: "tutor" } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

/** The room's geometry: the terminal's box, the page's scroll sizes, and the terminal's columns. */
async function geometry(page: Page) {
  return page.evaluate(() => {
    const frame = document.querySelector('[data-testid="terminal"]')!.getBoundingClientRect();
    const root = document.documentElement;
    const term = (window as unknown as { __studyloopTerm?: { cols: number; rows: number } }).__studyloopTerm;
    return {
      frameTop: frame.top,
      frameBottom: frame.bottom,
      frameWidth: frame.width,
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
      scrollHeight: root.scrollHeight,
      scrollWidth: root.scrollWidth,
      scrollY: window.scrollY,
      cols: term?.cols ?? 0,
      rows: term?.rows ?? 0,
    };
  });
}

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("the study room", () => {
  const server = testServer();

  test("the terminal fills the window below the session bar at every size, with no page scroll", async ({ browser }) => {
    test.setTimeout(180_000);
    const { page: starter, check: checkStarter } = await watchedPage(browser, DESKTOP);
    await startSession(starter, server.url, "closures");
    for (const size of SIZES) {
      const { page, check } = await watchedPage(browser, size);
      await open(page, `${server.url}/study`);
      await expect(page.getByTestId("console-status")).toHaveText("live");
      await expectTerminalToContain(page, "tutor>");
      // A page that comes late shows the session at its size with a cue; asking fits it to this window.
      const cue = page.getByTestId("terminal-cue");
      // The cue shows once the size has held for a moment (settled-cue.ts); the terminal may also fit
      // this page by itself (its own size arriving first): then there is nothing to click.
      const fitsHere = (g: Awaited<ReturnType<typeof geometry>>) => g.cols >= Math.floor((g.frameWidth - 24) / 9);
      await expect.poll(async () => (await cue.isVisible()) || fitsHere(await geometry(page)), { timeout: 5_000 }).toBe(true);
      if (await cue.isVisible()) {
        await cue
          .getByRole("button", { name: "Fit to this screen" })
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        await expect(cue).toBeHidden();
      }
      // Focusing the terminal (a click, or typing) must not scroll the page.
      await page.getByTestId("terminal").click();
      await expect.poll(async () => (await geometry(page)).frameBottom).toBeGreaterThan(0);
      const g = await geometry(page);
      await shot(page, `study-${size.name}`);
      expect(g.frameBottom, JSON.stringify(g)).toBeLessThanOrEqual(g.innerHeight);
      expect(g.scrollHeight, JSON.stringify(g)).toBeLessThanOrEqual(g.innerHeight);
      expect(g.scrollWidth, JSON.stringify(g)).toBeLessThanOrEqual(g.innerWidth);
      expect(g.scrollY).toBe(0);
      // Every link of the nav is on the screen, none past the edge of a phone's row.
      const navRight = await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link")
        .evaluateAll((links) => Math.max(...links.map((a) => a.getBoundingClientRect().right)));
      expect(navRight, size.name).toBeLessThanOrEqual(g.innerWidth);
      // The terminal keeps most of the window: on a laptop it is most of the height, and its columns
      // use the width it is given (about 8.4 px a column at 14 px).
      expect(g.frameBottom - g.frameTop, JSON.stringify(g)).toBeGreaterThan(g.innerHeight * (size.options.isMobile ? 0.45 : 0.7));
      expect(fitsHere(g), JSON.stringify(g)).toBe(true);
      if (size.options.isMobile) {
        // The panel is a bottom sheet on a phone: closed until asked for, then over the room's foot.
        await expect(page.locator("#study-panel")).toBeHidden();
        await page.getByTestId("panel-toggle").tap();
        await expect(page.locator("#study-panel")).toBeVisible();
        await expect(page.getByRole("heading", { name: "Mark a topic" })).toBeVisible();
        await shot(page, `study-${size.name}-sheet`);
        expect((await geometry(page)).scrollHeight).toBeLessThanOrEqual(g.innerHeight);
        await page.locator("#study-panel").getByRole("button", { name: "Close" }).tap();
        await expect(page.locator("#study-panel")).toBeHidden();
      } else {
        // Beside the terminal on a laptop; closing it gives the terminal the whole width.
        await expect(page.locator("#study-panel")).toBeVisible();
        const before = g.cols;
        await page.getByTestId("panel-toggle").click();
        await expect(page.locator("#study-panel")).toBeHidden();
        await expect.poll(async () => (await geometry(page)).cols).toBeGreaterThan(before + 20);
        await page.getByTestId("panel-toggle").click();
      }
      check();
      await page.context().close();
    }
    checkStarter();
    await starter.context().close();
  });

  test("the keyboard leaves the terminal with Alt+T, reaches every control, and parking returns to the terminal", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    await startSession(page, server.url, "keyboard");
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    const focused = () => page.evaluate(() => document.activeElement?.className ?? "");
    await page.getByTestId("terminal").click();
    await expect.poll(focused).toContain("xterm-helper-textarea");
    // Tab belongs to the agent while the terminal has the keyboard...
    await page.keyboard.press("Tab");
    await expect.poll(focused).toContain("xterm-helper-textarea");
    // ...and Alt+T moves out to the session bar, from where Tab walks the page's controls.
    await expect(page.getByTestId("focus-hint")).toContainText("Alt+T");
    await page.keyboard.press("Alt+t");
    await expect(page.getByRole("button", { name: "Pause" })).toBeFocused();
    const walked: string[] = [];
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press("Tab");
      walked.push(
        await page.evaluate(
          () => (document.activeElement as HTMLElement | null)?.innerText?.trim().replace(/\s+/g, " ") || document.activeElement?.id || "",
        ),
      );
    }
    // The bar, then the panel (topic, note, the marks, this device's settings), then End session.
    expect(walked.join(" | ")).toMatch(
      /Park a thought Alt\+P \| Marks & notes \|.*mark-topic \| mark-note \| Win \| Struggling \| Learning \| Insight.*This device.*End session/,
    );
    // The focus ring shows where the keyboard is.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
    await page.getByRole("button", { name: "Pause" }).focus();
    await page.keyboard.press("Alt+t");
    await expect.poll(focused).toContain("xterm-helper-textarea");

    // Park with Alt+P and Enter: the focus is back in the terminal, and typing reaches the tutor.
    await page.keyboard.press("Alt+p");
    await expect(page.getByTestId("park-dialog")).toBeVisible();
    await page.keyboard.type("what is a thunk?");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("park-done")).toBeVisible();
    await expect.poll(focused).toContain("xterm-helper-textarea");
    await page.keyboard.type("after parking\r");
    // The Tabs pressed above went to the tutor too (its line shows them as spaces).
    await expectTerminalToContain(page, /you said:\s+after parking/);
    check();
    await page.context().close();
  });

  test("a terminal theme chosen on this device is remembered, with a minimum contrast", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    await startSession(page, server.url, "themes");
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    const theme = () =>
      page.evaluate(() => {
        const term = (
          window as unknown as { __studyloopTerm: { options: { theme: { background: string }; minimumContrastRatio: number } } }
        ).__studyloopTerm;
        return {
          background: term.options.theme.background,
          ratio: term.options.minimumContrastRatio,
          html: document.documentElement.dataset.terminalTheme,
        };
      });
    await page.getByText("This device").click();
    await page.getByLabel("Terminal colours").selectOption("dark");
    await expect.poll(theme).toEqual({ background: "#101215", ratio: 4.5, html: "dark" });
    await page.reload();
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expect.poll(theme).toEqual({ background: "#101215", ratio: 4.5, html: "dark" });
    await page.getByText("This device").click();
    await page.getByLabel("Terminal colours").selectOption("light");
    await expect.poll(theme).toEqual({ background: "#fbfaf6", ratio: 4.5, html: "light" });
    check();
    await page.context().close();
  });

  test("a 200-character unbroken topic, note and thought widen no page, and every page passes axe", async ({ browser }) => {
    test.setTimeout(240_000);
    const long = `https://example.org/${"a".repeat(180)}`;
    const { page: desk, check: checkDesk } = await watchedPage(browser, DESKTOP);
    const id = await startSession(desk, server.url, long);
    expect(
      (await desk.request.post(`${server.url}/api/session/topics`, { data: { topic: long, status: "win", note: long } })).status(),
    ).toBe(201);
    expect((await desk.request.post(`${server.url}/api/parking`, { data: { text: long } })).status()).toBe(201);

    const pages = ["/", "/study", "/parking", "/devices", `/sessions/${id}`, "/no-such-page"];
    for (const size of [PHONE, SIZES[3]!, DESKTOP]) {
      const { page, check } = await watchedPage(browser, size);
      for (const path of pages) {
        await page.goto(`${server.url}${path}`);
        await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
        const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(width.scroll, `${path} at ${size.name}`).toBeLessThanOrEqual(width.inner);
        if (size !== DESKTOP || path !== "/study") expect(await seriousAxeViolations(page), `${path} at ${size.name}`).toEqual([]);
        if (size === PHONE) await shot(page, `long-${path.replace(/\W+/g, "-")}-${size.name}`);
      }
      // The End dialog stays on screen.
      await page.goto(`${server.url}/study`);
      await expect(page.getByTestId("console-status")).toHaveText("live");
      await page.getByRole("button", { name: "End session" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.options.viewport!.width);
      await page.keyboard.press("Escape");
      check();
      await page.context().close();
    }
    // The live study page with its panel open passes axe too (the terminal's own rows excluded: xterm's
    // accessibility tree is its own).
    const { page, check } = await watchedPage(browser, DESKTOP);
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    const results = await new AxeBuilder({ page }).exclude(".xterm").analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(
      serious.map((v) => v.id),
      JSON.stringify(serious.map((v) => v.nodes.map((n) => [n.target, n.failureSummary]))),
    ).toEqual([]);
    check();
    await page.context().close();

    // Ended: the summary on the study page and the dashboard's history stay within the phone's width.
    await desk.request.post(`${server.url}/api/session/end`);
    const { page: phone, check: checkPhone } = await watchedPage(browser, PHONE);
    for (const path of ["/", "/study", `/sessions/${id}`]) {
      await open(phone, `${server.url}${path}`);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBeLessThanOrEqual(0);
      expect(await seriousAxeViolations(phone), path).toEqual([]);
    }
    await shot(phone, "long-ended-study");
    checkPhone();
    checkDesk();
    await phone.context().close();
    await desk.context().close();
    expect(
      withDb(server.dataDir, (db) => (db.prepare("SELECT topic FROM study_sessions WHERE id = ?").get(id) as { topic: string }).topic),
    ).toBe(long);
  });

  test("typing while the page is still connecting is held and reaches the tutor in order once attached", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    await startSession(page, server.url, "held keys");
    // The page's socket.io connection waits for `release`: the terminal is on the page, not yet attached.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/socket\.io\//, async (ws) => {
      await released;
      ws.connectToServer();
    });
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("connecting");
    await typeInTerminal(page, "held one\r");
    await page.keyboard.type("held two\r");
    release();
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expectTerminalToContain(page, /you said: held one[\s\S]*you said: held two/);
    await expect(page.getByText(/not attached/i)).toHaveCount(0);
    check();
  });

  test("typing while the scrollback is still being restored reaches the tutor in order, once", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    await startSession(page, server.url, "keys during the restore");
    // What the server sends from the replay on waits for `release`: the page is attached (its typing
    // goes out), and its terminal has not parsed the replay, so a stand-in takes the keys.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/terminal-lane\?/, (ws) => {
      const toServer = ws.connectToServer();
      let holding = false;
      toServer.onMessage((message) => {
        // The terminal's frames come on its lane; a packed replay is one binary message whose header
        // is JSON text (common/terminal/lane-codec.ts).
        const header = typeof message === "string" ? message : message.subarray(0, 256).toString("latin1");
        if (header.includes('"packed-replay"')) holding = true;
        if (holding) void released.then(() => ws.send(message));
        else ws.send(message);
      });
    });
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expect.poll(() => page.evaluate(() => "__studyloopStandIn" in window)).toBe(true);
    await typeInTerminal(page, "during one\r");
    await page.keyboard.type("during two\r");
    // Typed into the stand-in: the terminal is not on the page until its replay is parsed.
    expect(
      await page.evaluate(() => (window as unknown as { __studyloopTerm: { element?: unknown } }).__studyloopTerm.element),
    ).toBeUndefined();
    release();
    await expectTerminalToContain(page, /you said: during one[\s\S]*you said: during two/);
    const text = await terminalText(page);
    expect(text.match(/you said: during one/g)).toHaveLength(1);
    expect(text.match(/you said: during two/g)).toHaveLength(1);
    await expect(page.getByTestId("screen-preview")).toHaveCount(0);
    check();
  });
});

test.describe("second thoughts and failed starts", () => {
  let server: StartedServer;
  test.beforeAll(async () => {
    // "quits" exits at once: a session that fails before any study.
    server = await startServer({
      dataDir: makeDataDir({ quits: { label: "Quits at once", command: process.execPath, args: ["-e", "process.exit(3)"] } }),
    });
  });
  test.afterAll(async () => {
    await server.stop();
  });
  test.afterEach(async ({ request }) => {
    await request.post(`${server.url}/api/session/end`);
  });

  test("a mark and a parked thought can be edited and taken back; the session's counts follow", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    const id = await startSession(page, server.url, "edits");
    expect((await page.request.post(`${server.url}/api/session/topics`, { data: { topic: "closures", status: "win" } })).status()).toBe(
      201,
    );
    expect((await page.request.post(`${server.url}/api/parking`, { data: { text: "what is a thunk" } })).status()).toBe(201);
    const counts = () =>
      withDb(server.dataDir, (db) => db.prepare("SELECT win_count AS w, struggle_count AS s FROM study_sessions WHERE id = ?").get(id));
    expect(counts()).toEqual({ w: 1, s: 0 });
    await open(page, `${server.url}/study`);
    const marks = page.getByTestId("mark-feed");
    await expect(marks).toContainText("Win closures");

    await page.getByRole("button", { name: "Edit the mark on closures" }).click();
    await marks.getByLabel("How is it going?").selectOption("struggling");
    await marks.getByLabel("Note", { exact: true }).fill("scope chains");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(marks).toContainText("Struggling closures · scope chains");
    expect(counts()).toEqual({ w: 0, s: 1 });
    await page.getByRole("button", { name: "Take back the mark on closures" }).click();
    await expect(page.getByTestId("mark-feed")).toHaveCount(0);
    expect(counts()).toEqual({ w: 0, s: 0 });
    expect(withDb(server.dataDir, (db) => db.prepare("SELECT COUNT(*) AS n FROM topic_marks").get())).toEqual({ n: 0 });

    await page.getByRole("button", { name: "Edit this parked thought" }).click();
    await page.getByLabel("The thought").fill("what is a thunk, in Haskell?");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("parked-feed")).toContainText("what is a thunk, in Haskell?");
    await expect
      .poll(() => withDb(server.dataDir, (db) => db.prepare("SELECT text FROM parked_items").all()))
      .toEqual([{ text: "what is a thunk, in Haskell?" }]);
    await page.getByRole("button", { name: "Take back this parked thought" }).click();
    await expect(page.getByTestId("parked-feed")).toHaveCount(0);
    expect(withDb(server.dataDir, (db) => db.prepare("SELECT COUNT(*) AS n FROM parked_items").get())).toEqual({ n: 0 });

    // Refusals write nothing: an empty change, an unknown mark, a mark of an ended session.
    const mark = (await (
      await page.request.post(`${server.url}/api/session/topics`, { data: { topic: "scope", status: "win" } })
    ).json()) as { mark: { id: string } };
    const empty = await page.request.patch(`${server.url}/api/session/topics/${mark.mark.id}`, { data: {} });
    expect(empty.status()).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe("Give the topic, status or note to change.");
    expect((await page.request.delete(`${server.url}/api/session/topics/no-such-mark`)).status()).toBe(404);
    expect((await page.request.patch(`${server.url}/api/parking/no-such-thought`, { data: { text: "x" } })).status()).toBe(404);
    await page.request.post(`${server.url}/api/session/end`);
    const late = await page.request.delete(`${server.url}/api/session/topics/${mark.mark.id}`);
    expect(late.status()).toBe(409);
    expect(((await late.json()) as { error: string }).error).toMatch(/session has ended/);
    expect(withDb(server.dataDir, (db) => db.prepare("SELECT COUNT(*) AS n FROM topic_marks").get())).toEqual({ n: 1 });
    check();
    await page.context().close();
  });

  test("a session that failed before any study is kept but hidden from the history until asked for", async ({ browser }) => {
    const { page, check } = await watchedPage(browser, DESKTOP);
    await startSession(page, server.url, "studied");
    await page.request.post(`${server.url}/api/session/end`);
    await page.request.post(`${server.url}/api/session/start`, { data: { topic: "never started", energy: 5, agent: "quits" } });
    await expect
      .poll(() => withDb(server.dataDir, (db) => db.prepare("SELECT status FROM study_sessions WHERE topic = 'never started'").get()))
      .toEqual({ status: "ended" });
    await open(page, server.url);
    await expect(page.getByTestId("history")).toContainText("studied");
    await expect(page.getByTestId("history")).not.toContainText("never started");
    await page.getByRole("link", { name: /Show 1 session that failed before any study/ }).click();
    await expect(page.getByTestId("history")).toContainText("never started");
    await page.getByRole("link", { name: "Hide the sessions that failed before any study" }).click();
    await expect(page.getByTestId("history")).not.toContainText("never started");
    check();
    await page.context().close();
  });
});

test.describe("breaks nobody misses", () => {
  let server: StartedServer;
  test.beforeAll(async () => {
    // A plan minute lasts half a second here: the low-energy nudge comes at 7.5 s of focus.
    server = await startServer({ env: { STUDYLOOP_TIMER_MINUTE_SECONDS: "0.5" } });
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test("a due break covers the terminal on every device and changes the title; taking it pauses", async ({ browser }) => {
    const { page: laptop, check: checkLaptop } = await watchedPage(browser, DESKTOP);
    const { page: phone, check: checkPhone } = await watchedPage(browser, PHONE);
    await startSession(laptop, server.url, "breaks", 2);
    await open(laptop, `${server.url}/study`);
    await open(phone, `${server.url}/study`);
    await expect(laptop.getByTestId("console-status")).toHaveText("live");
    await expect(phone.getByTestId("console-status")).toHaveText("live");
    for (const page of [laptop, phone]) {
      await expect(page.getByTestId("break-overlay")).toBeVisible({ timeout: 20_000 });
      await expect(page).toHaveTitle(/^(Longer break|Break) time · StudyLoop$/);
      // Over the top of the terminal, inside the window.
      const overlay = (await page.getByTestId("break-nudge").boundingBox())!;
      const frame = (await page.getByTestId("terminal").boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(overlay.y + overlay.height).toBeLessThanOrEqual(viewport.height);
      expect(overlay.y).toBeGreaterThanOrEqual(frame.y - 60);
      expect(overlay.y).toBeLessThan(frame.y + frame.height);
      const onTop = await page.evaluate(() => {
        const box = document.querySelector('[data-testid="break-nudge"]')!.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + 10);
        return !!hit?.closest('[data-testid="break-overlay"]');
      });
      expect(onTop).toBe(true);
    }
    await shot(laptop, "break-1280x800");
    await shot(phone, "break-390x844");
    await phone.getByRole("button", { name: "Take the break" }).tap();
    for (const page of [laptop, phone]) {
      await expect(page.getByTestId("timer")).toHaveAttribute("data-paused", "true");
      await expect(page.getByTestId("break-overlay")).toHaveCount(0);
      await expect(page).toHaveTitle("StudyLoop");
    }
    checkLaptop();
    checkPhone();
    await laptop.context().close();
    await phone.context().close();
  });
});
