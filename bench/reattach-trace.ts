// `node --import tsx bench/reattach-trace.ts`: the waterfall of one reattach, as a learner reloading the
// study page sees it. Starts StudyLoop from its build, fills a session's scrollback (12,000 lines), then
// reloads the page BENCH_REATTACH_RUNS times (same tab: `page.reload()`, so the old page is torn down as a
// learner's is) and prints, per load, in ms from the navigation's own time origin: the HTML's first and
// last byte, each script and stylesheet, first contentful paint, the WebSocket opened, React hydrated,
// the attach sent and acknowledged, the replay received, parsed and rendered, and the main thread's long
// tasks; then the medians. BENCH_TRACE=path also writes a Chromium trace (CDP Tracing) of the last load;
// STUDYLOOP_ROOT=<checkout> times another checkout's build with this harness (before/after).
import path from "node:path";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { BENCH, FLOOD, startOurs, workDir } from "./lib/targets.ts";
import { REATTACH_LINES, SCROLLBACK_LINES } from "./lib/measure.ts";

const RUNS = Number(process.env.BENCH_REATTACH_RUNS ?? 3);

interface Waterfall {
  htmlEnd: number;
  fcp: number;
  opened: number;
  attachSent: number;
  attachAck: number;
  restoreParsed: number;
  restoreRendered: number;
  trace: { wsCreated: number; wsOpen: number; hydrated: number; longTasks: [number, number][] };
}

async function main(): Promise<void> {
  const dir = workDir();
  const ours = await startOurs(dir);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ path: path.join(BENCH, "lib", "probe.js") });
    await context.addInitScript({ path: path.join(BENCH, "lib", "trace-probe.js") });
    await ours.warm();
    const page = await ours.open(context);
    const prompts = await page.evaluate(() => window.__bench.marks.filter((m) => m.name === "prompt").length);
    await page.keyboard.type(`${process.execPath} ${FLOOD} --lines ${REATTACH_LINES}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n,
      prompts,
      {
        timeout: 120_000,
      },
    );
    const rows = await page.evaluate(() => window.__bench.term!.rows);
    await context.addInitScript((wanted) => (window.__benchRestore = wanted), {
      minLines: SCROLLBACK_LINES + rows,
      text: `scroll ${REATTACH_LINES}`,
    });
    const keys = ["htmlEnd", "fcp", "wsCreated", "wsOpen", "attachSent", "attachAck", "hydrated", "opened", "parsed", "restored"] as const;
    const runs: Record<(typeof keys)[number], number>[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.waitForTimeout(1_500);
      const last = run === RUNS - 1 && process.env.BENCH_TRACE;
      if (last) await browser.startTracing(page, { path: process.env.BENCH_TRACE, screenshots: false });
      await page.reload();
      await page.waitForFunction(() => window.__bench.restore?.renderedAt != null && window.__bench.attachAckAt !== null, null, {
        polling: 20,
        timeout: 60_000,
      });
      if (last) await browser.stopTracing();
      const w = (await page.evaluate("window.__traceRead()")) as Waterfall;
      if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(w, null, 1));
      runs.push({
        htmlEnd: w.htmlEnd,
        fcp: w.fcp,
        wsCreated: w.trace.wsCreated,
        wsOpen: w.trace.wsOpen,
        attachSent: w.attachSent,
        attachAck: w.attachAck,
        hydrated: w.trace.hydrated,
        opened: w.opened,
        parsed: w.restoreParsed,
        restored: w.restoreRendered,
      });
      console.log(
        `run ${run + 1}: ${keys.map((k) => `${k} ${runs.at(-1)![k]}`).join(", ")}; long tasks ${w.trace.longTasks.map(([at, ms]) => `${at}+${ms}`).join(" ")}`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`median of ${RUNS} (ms from navigation start): ${keys.map((k) => `${k} ${median(runs.map((r) => r[k]))}`).join(", ")}`);
  } finally {
    await browser.close();
    await ours.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
