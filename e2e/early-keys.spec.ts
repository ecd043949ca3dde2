// Typing on a reloaded study page before its scripts run (app/study/early-catcher.ts): the page's
// script chunks are held back while the keys are typed, so nothing but the HTML's inline catcher can
// take them (on a page without it they are lost); its worker (common/study/early-worker.ts) sends them
// to the tutor before the page hydrates, and the console takes over once hydrated. The tutor records
// the exact bytes it receives (its `keys FILE` mode). Then the same keys go through xterm.js in the
// hydrated page: the catcher must send what xterm.js sends.
import fs from "node:fs";
import path from "node:path";
import { test, expect, type BrowserContextOptions, type Page } from "@playwright/test";
import { startServer, type StartedServer } from "./support/server";
import { hydrated, open, watchProblems } from "./support/page";
import { expectTerminalToContain, typeInTerminal } from "./support/terminal";

/** Playwright key names, and the bytes xterm.js sends for each in its default modes. */
const KEYS: readonly [string, string][] = [
  ["h", "h"],
  ["Shift+I", "I"],
  ["Space", " "],
  ["1", "1"],
  ["Enter", "\r"],
  ["Backspace", "\x7f"],
  ["Tab", "\t"],
  ["Shift+Tab", "\x1b[Z"],
  ["Escape", "\x1b"],
  ["ArrowUp", "\x1b[A"],
  ["ArrowDown", "\x1b[B"],
  ["ArrowRight", "\x1b[C"],
  ["ArrowLeft", "\x1b[D"],
  ["Home", "\x1b[H"],
  ["End", "\x1b[F"],
  ["Delete", "\x1b[3~"],
  ["Control+c", "\x03"],
  ["Control+u", "\x15"],
  ["Control+l", "\x0c"],
  ["Control+[", "\x1b"],
];
const EXPECTED = KEYS.map(([, bytes]) => bytes).join("");

const SIZES: readonly [string, BrowserContextOptions][] = [
  ["a laptop", { viewport: { width: 1280, height: 800 } }],
  ["a phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
];

/** Holds back every script chunk of the page's next loads until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** What the tutor has received while recording, in order. */
function received(file: string): string {
  if (!fs.existsSync(file)) return "";
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { data: string }).data)
    .join("");
}

test.describe("typing before the page's scripts run", () => {
  let server: StartedServer;
  test.beforeAll(async () => {
    server = await startServer();
  });
  test.afterAll(async () => {
    await server.stop();
  });
  test.afterEach(async ({ request }) => {
    await request.post(`${server.url}/api/session/end`);
  });

  /** Starts a tutor session on the page and has the tutor record the keys it receives; their file. */
  async function recording(page: Page, topic: string, name: string): Promise<string> {
    const res = await page.request.post(`${server.url}/api/session/start`, { data: { topic, energy: 5, agent: "tutor" } });
    expect(res.status(), await res.text()).toBe(201);
    const file = path.join(server.dataDir, name);
    await open(page, `${server.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await typeInTerminal(page, `keys ${file}\r`);
    await expectTerminalToContain(page, "keys: recording");
    return file;
  }

  for (const [name, options] of SIZES) {
    test(`on ${name}, keys typed before hydration reach the tutor before it, in order, once, as xterm.js would send them`, async ({
      browser,
    }) => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const problems = watchProblems(page);
      const file = await recording(page, "early keys", `keys-${name.replace(/\W/g, "-")}.jsonl`);
      // Reloaded with every script chunk held back: React cannot hydrate, the console cannot exist.
      const release = await holdScripts(page);
      const reload = await page.goto(`${server.url}/study`, { waitUntil: "commit" });
      // The policy is as strict as before: scripts only by the response's nonce.
      const scripts = (reload!.headers()["content-security-policy"] ?? "").split("; ").find((d) => d.startsWith("script-src "));
      expect(scripts).toMatch(/^script-src 'nonce-[^']+' 'strict-dynamic' 'wasm-unsafe-eval'$/);
      // The terminal's frame is in the HTML: typing is what a learner does once they see it.
      await expect(page.getByTestId("terminal")).toBeVisible();
      for (const [key] of KEYS) await page.keyboard.press(key);
      // The worker sends them while the page's scripts are still held back.
      await expect.poll(() => received(file), { message: "the tutor got the early keys before hydration" }).toBe(EXPECTED);
      expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(false);

      // Hydrated: the console takes over, sending none of them again; the same keys through xterm.js
      // come after, once each.
      release();
      await hydrated(page);
      await expect(page.getByTestId("console-status")).toHaveText("live");
      await page.getByTestId("terminal").click();
      for (const [key] of KEYS) await page.keyboard.press(key);
      await expect.poll(() => received(file), { message: "xterm.js sent the same bytes after them" }).toBe(EXPECTED + EXPECTED);
      await page.keyboard.press("Control+]");
      await expectTerminalToContain(page, "keys: done");
      expect(received(file)).toBe(EXPECTED + EXPECTED);
      expect(problems, "page and console errors").toEqual([]);
      await context.close();
    });
  }

  test("when the worker cannot start, the keys wait for the console and arrive once, in order", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const file = await recording(page, "no worker", "keys-no-worker.jsonl");
    const release = await holdScripts(page);
    await page.route(/\/early-keys-worker\.js/, (route) => route.abort());
    await page.goto(`${server.url}/study`, { waitUntil: "commit" });
    await expect(page.getByTestId("terminal")).toBeVisible();
    for (const letter of "early") await page.keyboard.press(letter);
    await page.waitForTimeout(300);
    expect(received(file)).toBe("");
    release();
    await hydrated(page);
    await expect.poll(() => received(file), { message: "the console sent the held keys" }).toBe("early");
    await page.getByTestId("terminal").click();
    await page.keyboard.press("!");
    await expect.poll(() => received(file)).toBe("early!");
    await context.close();
  });

  test("keys typed while the scripts load and while the console takes over arrive in order, once", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const file = await recording(page, "handover", "keys-handover.jsonl");
    // Typed without a pause from the reload's first moment to well after hydration: every key is taken
    // by the catcher, the stand-in or the terminal, and each reaches the tutor once, in order.
    await page.goto(`${server.url}/study`, { waitUntil: "commit" });
    await page.waitForFunction(() => "__studyloopEarlyKeys" in window || document.documentElement.hasAttribute("data-hydrated"));
    const letters = "abcdefghijklmnopqrstuvwxyz".repeat(4);
    for (const letter of letters) {
      await page.keyboard.press(letter);
      await page.waitForTimeout(10);
    }
    await hydrated(page);
    await page.getByTestId("terminal").click();
    await page.keyboard.press("0");
    await expect.poll(() => received(file)).toBe(`${letters}0`);
    await context.close();
  });
});
