// `STUDYLOOP_ROOT_B=<checkout> node --import tsx bench/reattach-ab.ts`: reattach, this checkout's build
// (A) against another's (B), on a machine whose load changes from minute to minute. Both servers run at
// once, each with a page whose session printed 12,000 lines; the pages are reloaded in turn (A, B, A,
// B, ...), BENCH_REATTACH_RUNS times each, so whatever else the machine does falls on both alike. Prints
// each reload's waterfall (ms from its navigation start) and the medians, with the main thread's
// longest task after the attach. STUDYLOOP_KEEP_BUILD=1 as for the bench.
import path from "node:path";
import fs from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { BENCH, FLOOD, startOurs, workDir } from "./lib/targets.ts";
import { REATTACH_LINES, SCROLLBACK_LINES } from "./lib/measure.ts";

const RUNS = Number(process.env.BENCH_REATTACH_RUNS ?? 8);
const B_ROOT = process.env.STUDYLOOP_ROOT_B;
if (!B_ROOT) throw new Error("Set STUDYLOOP_ROOT_B to the checkout to compare with (its build).");

interface Waterfall {
  fcp: number;
  opened: number;
  attachAck: number;
  restoreParsed: number;
  restoreRendered: number;
  trace: { hydrated: number; longTasks: [number, number][]; workerMade?: number; firstPost?: number; workerDone?: number };
}
const KEYS = [
  "fcp",
  "hydrated",
  "interactive",
  "workerMade",
  "firstPost",
  "keysFrom",
  "keyReached",
  "workerDone",
  "lostKeys",
  "parsed",
  "restored",
  "longestAfterAttach",
] as const;
/** Typed during each reload, one every TYPE_EVERY_MS from the new page's commit, each a different letter. */
const TYPED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const TYPE_EVERY_MS = 20;
const KEY_CLOCK = path.join(BENCH, "workload", "key-clock.mjs");
type Row = Record<(typeof KEYS)[number], number>;

async function start(root: string | undefined, name: string) {
  if (root) process.env.STUDYLOOP_ROOT = root;
  else delete process.env.STUDYLOOP_ROOT;
  const dir = workDir();
  const ours = await startOurs(dir);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ path: path.join(BENCH, "lib", "probe.js") });
  await context.addInitScript({ path: path.join(BENCH, "lib", "trace-probe.js") });
  await ours.warm();
  const page = await ours.open(context);
  const prompts = await page.evaluate(() => window.__bench.marks.filter((m) => m.name === "prompt").length);
  await page.keyboard.type(`${process.execPath} ${FLOOD} --lines ${REATTACH_LINES}`);
  await page.keyboard.press("Enter");
  await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n, prompts, {
    timeout: 120_000,
  });
  const rows = await page.evaluate(() => window.__bench.term!.rows);
  // The agent's own record of when each typed key arrived (bench/workload/key-clock.mjs).
  const keyFile = path.join(dir, "keys.jsonl");
  await page.keyboard.type(`${process.execPath} ${KEY_CLOCK} ${keyFile}`);
  await page.keyboard.press("Enter");
  for (let i = 0; i < 200 && !fs.existsSync(keyFile); i++) await page.waitForTimeout(50);
  await context.addInitScript((wanted) => (window.__benchRestore = wanted), {
    minLines: SCROLLBACK_LINES + rows,
    text: `scroll ${REATTACH_LINES}`,
  });
  return {
    name,
    page,
    keyFile,
    rows: [] as Row[],
    stop: async () => {
      await browser.close();
      await ours.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Types TYPED during a reload, from the new page's commit on (before it, keys go to the old page), and
 * reads when each reached the agent from the agent's own record: the first key that arrived, when it
 * was typed (`keysFrom`: every key typed before it was lost) and when the agent had it (`keyReached`),
 * ms from navigation start; `lostKeys`: keys typed after the commit that never arrived.
 */
async function typeThrough(page: Page, keyFile: string, reloaded: Promise<unknown>) {
  fs.writeFileSync(keyFile, "");
  await page.waitForEvent("framenavigated");
  const typedAt: number[] = [];
  for (const letter of TYPED) {
    typedAt.push(Date.now());
    await page.keyboard.press(letter);
    await page.waitForTimeout(TYPE_EVERY_MS);
  }
  await reloaded;
  return typedAt;
}

function keyFigures(keyFile: string, typedAt: number[], origin: number) {
  const chunks = fs
    .readFileSync(keyFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { at: number; data: string });
  const first = chunks.find((c) => c.data.length > 0);
  const index = first ? TYPED.indexOf(first.data[0]!) : -1;
  const got = chunks.map((c) => c.data).join("");
  return {
    keysFrom: index >= 0 ? Math.round(typedAt[index]! - origin) : NaN,
    keyReached: first ? Math.round(first.at - origin) : NaN,
    lostKeys: [...TYPED].filter((letter) => !got.includes(letter)).length,
  };
}

async function reload(page: Page, keyFile: string): Promise<Row> {
  const reloaded = page.reload();
  const typedAt = await typeThrough(page, keyFile, reloaded);
  await page.waitForFunction(() => window.__bench.restore?.renderedAt != null && window.__bench.attachAckAt !== null, null, {
    polling: 20,
    timeout: 60_000,
  });
  // Keys still on their way (the last ones are typed after the restore on a fast reload).
  await page.waitForTimeout(300);
  const origin = (await page.evaluate(() => performance.timeOrigin)) as number;
  const keys = keyFigures(keyFile, typedAt, origin);
  const w = (await page.evaluate("window.__traceRead()")) as Waterfall & { attachSent: number };
  const longest = Math.max(0, ...w.trace.longTasks.filter(([at, ms]) => at + ms > w.attachSent).map(([, ms]) => ms));
  return {
    fcp: w.fcp,
    hydrated: w.trace.hydrated,
    interactive: Math.max(w.attachAck, w.opened),
    // The early keys' worker, when the page has one (NaN otherwise): made, first key posted, done.
    workerMade: w.trace.workerMade ?? NaN,
    firstPost: w.trace.firstPost ?? NaN,
    workerDone: w.trace.workerDone ?? NaN,
    ...keys,
    parsed: w.restoreParsed,
    restored: w.restoreRendered,
    longestAfterAttach: longest,
  };
}

const a = await start(undefined, "A (this checkout)");
const b = await start(B_ROOT, `B (${B_ROOT})`);
try {
  for (let run = 0; run < RUNS; run++) {
    for (const side of run % 2 === 0 ? [a, b] : [b, a]) {
      await side.page.waitForTimeout(1_000);
      side.rows.push(await reload(side.page, side.keyFile));
      console.log(`${side.name} run ${side.rows.length}: ${KEYS.map((k) => `${k} ${side.rows.at(-1)![k]}`).join(", ")}`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  for (const side of [a, b])
    console.log(`${side.name}, median of ${RUNS}: ${KEYS.map((k) => `${k} ${median(side.rows.map((r) => r[k]))}`).join(", ")}`);
} finally {
  await a.stop();
  await b.stop();
}
