// The figures measured in the page, the same way for every pipeline (bench/lib/probe.js records the
// times): throughput of a 50 MB mixed-ANSI flood, keystroke echo latency, Ctrl-C under a `yes` flood,
// and (ours only) reattach to a screen with 10,000 lines of scrollback.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { FLOOD, promptCount } from "./targets.ts";
import { sampleRss, sleep } from "./proc.ts";
import { median, percentile } from "./stats.ts";

/** Bytes the flood program writes in the throughput test: BENCH_FLOOD_MB, default 50 MB (10^6 bytes to the MB). */
export const FLOOD_BYTES = Number(process.env.BENCH_FLOOD_MB ?? 50) * 1_000_000;
/** Keys typed in the echo test. */
export const ECHO_KEYS = 500;
/** One frame at 60 Hz, in ms: a rendered echo waits for the next frame after it is parsed. */
const FRAME_MS = 1000 / 60;
/** Keys typed on one line before Enter (kept under the terminal's width so nothing wraps). */
const KEYS_PER_LINE = 50;
/** Lines printed before the reattach test: more than the 10,000 lines of scrollback both sides keep. */
export const REATTACH_LINES = 12_000;
export const SCROLLBACK_LINES = 10_000;

async function runCommand(page: Page, command: string): Promise<void> {
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
}

async function waitForPromptAfter(page: Page, count: number, timeout = 120_000): Promise<void> {
  await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n, count, {
    timeout,
  });
}

export interface ThroughputResult {
  mbPerSecond: number;
  seconds: number;
  peakRssBytes: number;
  /**
   * Of `seconds`, how long the page's xterm had parsed everything it was given and waited for the next
   * write (bench/lib/probe.js "starved"), from the flood's first byte to its last.
   */
  starvedSeconds: number;
}

/** One run: `flood.mjs --bytes 50000000`; from the program's first byte to xterm parsing the last one. */
export async function throughput(page: Page, serverPid: number): Promise<ThroughputResult> {
  const stamp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-stamp-")), "first-byte");
  const doneBefore = await page.evaluate(() => window.__bench.marks.filter((m) => m.name === "done").length);
  const prompts = await promptCount(page);
  const rss = sampleRss(serverPid);
  await runCommand(page, `${process.execPath} ${FLOOD} --bytes ${FLOOD_BYTES} --stamp ${stamp}`);
  const handle = await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "done")[n] ?? false, doneBefore, {
    timeout: 600_000,
    polling: 100,
  });
  const done = (await handle.jsonValue()) as BenchMark;
  const start = await page.evaluate(() => window.__bench.marks.findLast((m) => m.name === "start"));
  const peakRssBytes = rss.stop();
  const first = Number(fs.readFileSync(stamp, "utf8"));
  fs.rmSync(path.dirname(stamp), { recursive: true, force: true });
  await waitForPromptAfter(page, prompts);
  const seconds = (done.wall - first) / 1000;
  const starvedSeconds = start ? (done.starvedMs - start.starvedMs) / 1000 : NaN;
  return { mbPerSecond: FLOOD_BYTES / 1e6 / seconds, seconds, peakRssBytes, starvedSeconds };
}

export interface EchoResult {
  renderedMs: number[];
  parsedMs: number[];
}

/** Types `keys` letters into `cat` (the kernel echoes them) and times each from keydown to the rendered echo. */
export async function echo(page: Page, keys = ECHO_KEYS): Promise<EchoResult> {
  const prompts = await promptCount(page);
  await runCommand(page, "cat");
  await sleep(300);
  const renderedMs: number[] = [];
  const parsedMs: number[] = [];
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i < keys; i++) {
    if (i > 0 && i % KEYS_PER_LINE === 0) {
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => window.__bench.term!.buffer.active.cursorX === 0, null, { polling: 10 });
      await sleep(20);
    }
    await page.evaluate(() => (window.__bench.echo = null));
    // A random pause first: otherwise every key is pressed at the same point of the page's frame (right
    // after the poll below returned), and the wait for the next frame, not the pipeline, sets the figure.
    await sleep(Math.random() * FRAME_MS);
    await page.keyboard.press(letters[i % letters.length]!);
    const handle = await page.waitForFunction(() => (window.__bench.echo?.renderedAt != null ? window.__bench.echo : false), null, {
      polling: "raf",
      timeout: 10_000,
    });
    const e = (await handle.jsonValue()) as { t0: number; parsedAt: number; renderedAt: number };
    renderedMs.push(e.renderedAt - e.t0);
    parsedMs.push(e.parsedAt - e.t0);
  }
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+D");
  await waitForPromptAfter(page, prompts);
  return { renderedMs, parsedMs };
}

export interface CtrlCResult {
  ms: number[];
}

/** Starts `yes`, lets it flood for `floodMs`, presses Ctrl-C and times it until the prompt is rendered. */
export async function ctrlC(page: Page, runs: number, floodMs = 1_000): Promise<CtrlCResult> {
  const ms: number[] = [];
  for (let run = 0; run < runs; run++) {
    await runCommand(page, "yes");
    await sleep(floodMs);
    await page.evaluate(() => (window.__bench.ctrlc = null));
    await page.keyboard.press("Control+C");
    const handle = await page.waitForFunction(
      () => {
        const b = window.__bench;
        if (!b.ctrlc) return false;
        const t0 = b.ctrlc.t0;
        const mark = b.marks.find((m) => m.name === "prompt" && m.parsedAt > t0 && m.renderedAt !== null);
        return mark ? mark.renderedAt! - t0 : false;
      },
      null,
      { polling: 10, timeout: 60_000 },
    );
    ms.push((await handle.jsonValue()) as number);
    await sleep(300);
  }
  return { ms };
}

export interface ReattachResult {
  /**
   * Page load (navigation start) to the server-rendered screen painted, per run (Element Timing); NaN
   * when the page painted none or it did not show the restored screen's last line.
   */
  paintedMs: number[];
  /** Page load (navigation start) to the restored screen rendered by xterm.js, scrollback and all, per run. */
  ms: number[];
  /** Page load to the restored buffer parsed (before its first frame), per run. */
  parsedMs: number[];
  /** The page's attach request to the restored screen rendered: the terminal pipeline's part, per run. */
  fromAttachMs: number[];
  /**
   * Page load to interactive, per run: the server acknowledged the page's attach and the terminal is
   * on the page (its first frame rendered), so typing reaches the agent from here.
   */
  interactiveMs: number[];
  /** Bytes the page received over its WebSocket from the attach request to the restore parsed (the last run). */
  wireBytes: number;
  snapshotChars: number;
  snapshotBytes: number;
  lines: number;
}

/**
 * Fills the scrollback, then reloads the page `runs` times and times each restore, in ms from the
 * reload's own navigation start (the page's time origin), as a learner reloading sees it: the same tab,
 * the old page torn down as part of the navigation. (Round 3 closed the page and opened a new one, which
 * timed the new page while Chromium was still tearing down the old one's 10,000-line terminal.)
 */
export async function reattach(page: Page, url: string, runs: number): Promise<{ result: ReattachResult; page: Page }> {
  const prompts = await promptCount(page);
  await runCommand(page, `${process.execPath} ${FLOOD} --lines ${REATTACH_LINES}`);
  await waitForPromptAfter(page, prompts);
  const rows = await page.evaluate(() => window.__bench.term!.rows);
  const paintedMs: number[] = [];
  const ms: number[] = [];
  const parsedMs: number[] = [];
  const fromAttachMs: number[] = [];
  const interactiveMs: number[] = [];
  let wireBytes = 0;
  let snapshotChars = 0;
  let snapshotBytes = 0;
  let lines = 0;
  const next = page;
  await next.addInitScript((wanted) => (window.__benchRestore = wanted), {
    minLines: SCROLLBACK_LINES + rows,
    text: `scroll ${REATTACH_LINES}`,
  });
  for (let run = 0; run < runs; run++) {
    await sleep(1_000);
    if (next.url() === url) await next.reload();
    else await next.goto(url);
    const handle = await next.waitForFunction(() => (window.__bench.restore?.renderedAt != null ? window.__bench.restore : false), null, {
      polling: 20,
      timeout: 60_000,
    });
    const restore = (await handle.jsonValue()) as { parsedAt: number; renderedAt: number; lines: number; written: number };
    await next.waitForFunction(
      () => window.__bench.wire.messages > 0 && window.__bench.attachAckAt !== null && window.__bench.openedAt !== null,
      null,
      {
        polling: 20,
        timeout: 30_000,
      },
    );
    const { writes, attachSentAt, attachAckAt, openedAt, wire, previewPaint } = await next.evaluate(() => ({
      writes: window.__bench.writes,
      attachSentAt: window.__bench.attachSentAt,
      attachAckAt: window.__bench.attachAckAt,
      openedAt: window.__bench.openedAt,
      wire: window.__bench.wire,
      previewPaint: window.__bench.previewPaint,
    }));
    // Typing reaches the agent once the attach is acknowledged and the terminal is on the page to type in.
    interactiveMs.push(attachAckAt === null || openedAt === null ? Number.NaN : Math.max(attachAckAt, openedAt));
    wireBytes = wire.bytes;
    paintedMs.push(previewPaint?.hasText ? previewPaint.at : Number.NaN);
    ms.push(restore.renderedAt);
    parsedMs.push(restore.parsedAt);
    fromAttachMs.push(attachSentAt === null ? Number.NaN : restore.renderedAt - attachSentAt);
    snapshotChars = writes.max;
    // Ours writes the snapshot in pieces: what was written until it was restored.
    snapshotBytes = Math.max(writes.maxBytes, restore.written);
    lines = restore.lines;
  }
  await next.evaluate(() => window.__bench.term!.focus());
  return {
    result: { paintedMs, ms, parsedMs, fromAttachMs, interactiveMs, wireBytes, snapshotChars, snapshotBytes, lines },
    page: next,
  };
}

/**
 * Page load to the first contentful paint of `url`, per load in a fresh page: the floor under any
 * screen a page can show (for wetty and bare, a page whose script then starts a new shell).
 */
export async function firstPaint(
  context: BrowserContext,
  url: string,
  runs: number,
  viewport: { width: number; height: number } | null = null,
): Promise<number[]> {
  const ms: number[] = [];
  for (let run = 0; run < runs; run++) {
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(url);
    const handle = await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? false, null, {
      polling: 20,
      timeout: 30_000,
    });
    ms.push((await handle.jsonValue()) as number);
    await page.close();
    await sleep(500);
  }
  return ms;
}

export const summarize = {
  p50: (xs: number[]) => median(xs),
  p99: (xs: number[]) => percentile(xs, 99),
  max: (xs: number[]) => Math.max(...xs),
};
