// `node --import tsx bench/flood-trace.ts`: where the page's main thread goes under a flood, ours against
// the bare pipeline, at the same terminal size (BENCH_GEOMETRY, default 150x50). Each page runs the
// workload's mixed-ANSI flood (FLOOD_MB, default 3) under a Chromium trace (CDP Tracing), then the
// renderer main thread's time is summed by event (script, style and layout, paint, ...), so a page that
// spends more per byte than the other shows where. Writes each trace to /tmp/flood-trace-NAME.json.
import fs from "node:fs";
import os from "node:os";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { sleep } from "./lib/proc.ts";
import { TEXT_OUTPUT } from "./lib/text-output.ts";
import { FLOOD, promptCount, startBare, startOurs, workDir, type Target } from "./lib/targets.ts";

const [COLS, ROWS] = (process.env.BENCH_GEOMETRY ?? "150x50").split("x").map(Number) as [number, number];
const BYTES = Number(process.env.FLOOD_MB ?? 3) * 1_000_000;
/** FLOOD_TRACE_CSS: a style sheet added to ours' page (an experiment without a rebuild, e.g. containment). */
const OURS_CSS = process.env.FLOOD_TRACE_CSS;
/** FLOOD_TRACE_PROFILE=1: also a JavaScript CPU profile of each page, summed by function (self time). */
const PROFILE = process.env.FLOOD_TRACE_PROFILE === "1";
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
  const chunks: { name: string; ph: string; dur?: number; tdur?: number; tid: number; ts: number; args?: { data?: { frame?: string } } }[] =
    [];
  cdp.on("Tracing.dataCollected", (e: { value: unknown[] }) => chunks.push(...(e.value as typeof chunks)));
  await cdp.send("Tracing.start", {
    traceConfig: { includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing"] },
    transferMode: "ReportEvents",
  });
  const prompts = await promptCount(page);
  if (PROFILE) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  const t0 = performance.now();
  await page.keyboard.type(`${process.execPath} ${FLOOD} --bytes ${BYTES}\n`);
  await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n, prompts, {
    timeout: 300_000,
    polling: 100,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (PROFILE) printProfile(name, ((await cdp.send("Profiler.stop")) as { profile: CpuProfile }).profile);
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await done;
  fs.writeFileSync(`/tmp/flood-trace-${name}.json`, JSON.stringify({ traceEvents: chunks }));
  // The renderer's main thread: the thread that ran the most FunctionCall time.
  const byThread = new Map<number, number>();
  for (const e of chunks) if (e.name === "FunctionCall" && e.dur) byThread.set(e.tid, (byThread.get(e.tid) ?? 0) + e.dur);
  const main = [...byThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  // Thread CPU time (tdur), which the machine's load distorts far less than wall time (dur).
  const sums = new Map<string, number>();
  let busy = 0;
  for (const e of chunks) {
    if (e.tid !== main || e.ph !== "X" || !e.tdur) continue;
    if (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") busy += e.tdur;
    if (EVENTS.includes(e.name) || e.name === "FireAnimationFrame") sums.set(e.name, (sums.get(e.name) ?? 0) + e.tdur);
  }
  const ms = (us: number) => (us / 1000).toFixed(0);
  console.log(
    `${name}: ${BYTES / 1e6} MB in ${seconds.toFixed(2)} s; renderer main thread CPU ${ms(busy)} ms: ${[...sums]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(", ")}`,
  );
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function (name, file, line:column), the top 25. */
function printProfile(name: string, profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${name}: JS profile, ${(total / 1000).toFixed(0)} ms sampled; self time:`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${key}`);
}

async function main(): Promise<void> {
  console.log(`load average ${os.loadavg()[0]!.toFixed(2)} before`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const dirs: string[] = [];
  const targets: Target[] = [];
  try {
    // "ours-text": ours with its page's output as strings (the attach request without `binary`), to
    // compare with output as bytes in the same run.
    for (const start of [startOurs, startOurs, startBare]) {
      const dir = workDir();
      dirs.push(dir);
      targets.push(await start(dir));
    }
    const pages: { name: string; page: Page; cdp: CDPSession }[] = [];
    for (const [i, target] of targets.entries()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ path: new URL("./lib/probe.js", import.meta.url).pathname });
      const name = i === 1 ? "ours-text" : target.name;
      if (name === "ours-text") await context.addInitScript(TEXT_OUTPUT);
      const page = await target.open(context, { cols: COLS, rows: ROWS });
      if (OURS_CSS && target.name === "ours") await page.addStyleTag({ content: OURS_CSS });
      pages.push({ name, page, cdp: await context.newCDPSession(page) });
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
