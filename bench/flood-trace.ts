// `node --import tsx bench/flood-trace.ts`: where the page's main thread goes under a flood, ours against
// the bare pipeline, at the same terminal size (BENCH_GEOMETRY, default 150x50). Each page runs the
// workload's mixed-ANSI flood (FLOOD_MB, default 3) under a Chromium trace (CDP Tracing), then the
// renderer main thread's time is summed by event (script, style and layout, paint, ...), so a page that
// spends more per byte than the other shows where. Writes each trace to /tmp/flood-trace-NAME.json.
import fs from "node:fs";
import os from "node:os";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { sleep } from "./lib/proc.ts";
import { FLOOD, promptCount, startBare, startOurs, workDir, type Target } from "./lib/targets.ts";

const [COLS, ROWS] = (process.env.BENCH_GEOMETRY ?? "150x50").split("x").map(Number) as [number, number];
const BYTES = Number(process.env.FLOOD_MB ?? 3) * 1_000_000;
const EVENTS = [
  "FunctionCall",
  "TimerFire",
  "EventDispatch",
  "RunMicrotasks",
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "MajorGC",
  "MinorGC",
  "V8.GC_SCAVENGER",
  "ParseHTML",
];

async function traced(page: Page, cdp: CDPSession, name: string): Promise<void> {
  const chunks: { name: string; ph: string; dur?: number; tid: number; ts: number; args?: { data?: { frame?: string } } }[] = [];
  cdp.on("Tracing.dataCollected", (e: { value: unknown[] }) => chunks.push(...(e.value as typeof chunks)));
  await cdp.send("Tracing.start", {
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing"] },
    transferMode: "ReportEvents",
  });
  const prompts = await promptCount(page);
  const t0 = performance.now();
  await page.keyboard.type(`${process.execPath} ${FLOOD} --bytes ${BYTES}\n`);
  await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n, prompts, {
    timeout: 300_000,
    polling: 100,
  });
  const seconds = (performance.now() - t0) / 1000;
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await done;
  fs.writeFileSync(`/tmp/flood-trace-${name}.json`, JSON.stringify({ traceEvents: chunks }));
  // The renderer's main thread: the thread that ran the most FunctionCall time.
  const byThread = new Map<number, number>();
  for (const e of chunks) if (e.name === "FunctionCall" && e.dur) byThread.set(e.tid, (byThread.get(e.tid) ?? 0) + e.dur);
  const main = [...byThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sums = new Map<string, number>();
  let busy = 0;
  for (const e of chunks) {
    if (e.tid !== main || e.ph !== "X" || !e.dur) continue;
    if (e.name === "ThreadControllerImpl::RunTask") busy += e.dur;
    if (EVENTS.includes(e.name)) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur);
  }
  const ms = (us: number) => (us / 1000).toFixed(0);
  console.log(
    `${name}: ${BYTES / 1e6} MB in ${seconds.toFixed(2)} s; renderer main thread busy ${ms(busy)} ms: ${[...sums]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(", ")}`,
  );
}

async function main(): Promise<void> {
  console.log(`load average ${os.loadavg()[0]!.toFixed(2)} before`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const dirs: string[] = [];
  const targets: Target[] = [];
  try {
    for (const start of [startOurs, startBare]) {
      const dir = workDir();
      dirs.push(dir);
      targets.push(await start(dir));
    }
    const pages: { name: string; page: Page; cdp: CDPSession }[] = [];
    for (const target of targets) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ path: new URL("./lib/probe.js", import.meta.url).pathname });
      const page = await target.open(context, { cols: COLS, rows: ROWS });
      pages.push({ name: target.name, page, cdp: await context.newCDPSession(page) });
    }
    for (const round of [0, 1]) {
      for (const p of round === 0 ? pages : [...pages].reverse()) {
        await traced(p.page, p.cdp, `${p.name}-${round}`);
        await sleep(1_000);
      }
    }
    console.log(`load average ${os.loadavg()[0]!.toFixed(2)} after`);
  } finally {
    await browser.close();
    for (const t of targets) await t.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
