// `npm run bench`: ours, wetty and the bare pipeline on the same work, in one run, in headless
// Chromium; prints the table with ratios and writes the raw figures to bench/results/.
// Everything runs on this machine and talks to 127.0.0.1 only. See docs/performance.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import {
  ctrlC,
  echo,
  firstPaint,
  reattach,
  summarize,
  throughput,
  ECHO_KEYS,
  FLOOD_BYTES,
  type ReattachResult,
  type ThroughputResult,
} from "./lib/measure.ts";
import { rssBytes, sleep } from "./lib/proc.ts";
import { loadTest, pacedTest, seedEndedSessions, SEEDED_SESSIONS, type LoadResult } from "./lib/state-load.ts";
import { renderTable, type Row } from "./lib/table.ts";
import { TEXT_OUTPUT } from "./lib/text-output.ts";
import { benchHistory, renderHistoryTable, type RouteFigure } from "./history.ts";
import { BENCH, ROOT, startBare, startOurs, startWetty, workDir, type Target, type TargetName } from "./lib/targets.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const VIEWPORT = { width: 1280, height: 800 };
/**
 * Milliseconds after the live figure (2 s after the page attached) for the settled one: a session's
 * start leaves its scratch memory for the next collection and for our server's trim
 * (server/diagnostics/memory-trim.ts), which waits for the size to stop moving.
 */
const LIVE_SETTLE_MS = 10_000;
/**
 * Every pipeline's terminal size (BENCH_GEOMETRY=COLSxROWS, e.g. 150x50): the same work for all three.
 * bare takes it as given; ours and wetty fit their window, so their viewport is sized until they land
 * on it. Unset: ours fits the 1280x800 viewport and the others are given its size.
 */
const GEOMETRY = (() => {
  if (!process.env.BENCH_GEOMETRY) return undefined;
  const [cols, rows] = process.env.BENCH_GEOMETRY.split("x").map(Number);
  if (!(cols! >= 20 && rows! >= 10)) throw new Error("BENCH_GEOMETRY must be COLSxROWS, e.g. 150x50");
  return { cols: cols!, rows: rows! };
})();
/** Throughput runs per pipeline; the table shows the median. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Page loads in the reattach test; the table shows the median. */
const REATTACH_RUNS = Number(process.env.BENCH_REATTACH_RUNS ?? 3);
/** The echo test's keys are typed in this many turns per pipeline. */
const ECHO_BLOCKS = 5;
const CTRL_C_RUNS = Number(process.env.BENCH_CTRL_C_RUNS ?? 5);
/** Page loads per pipeline in the first-paint test; the table shows the median. */
const FIRST_PAINT_RUNS = Number(process.env.BENCH_FIRST_PAINT_RUNS ?? 5);
const STATE_REQUESTS = Number(process.env.BENCH_STATE_REQUESTS ?? 4_000);
/** Concurrent connections of the state throughput test: a laptop, a phone and their pages' pollers, generously. */
const STATE_CONCURRENCY = 4;
/**
 * Requests a second in the state latency test: far above real use (each open page polls every few
 * seconds) yet below saturation, so the p99 is the time a request takes, not the queue in front of it.
 */
const STATE_RATE = 100;
const STATE_PACED_SECONDS = 10;
const ONLY = (process.env.BENCH_ONLY ?? "ours,ours-norec,wetty,bare,history").split(",") as TargetName[];
/** The history section (bench/history.ts): pages and APIs at 1,000 / 10,000 / 50,000 ended sessions. */
const HISTORY = (ONLY as string[]).includes("history");
/** Ours with recording off: only its throughput is taken (in the same rounds), to show recording's cost. */
const THROUGHPUT_ONLY: readonly TargetName[] = ["ours-norec"];

interface TargetResult {
  cols: number;
  rows: number;
  rssIdle: number;
  rssLive: number;
  /** LIVE_SETTLE_MS later, with nothing happening: what a learner's session costs while it lasts. */
  rssSettled: number;
  rssFlood: number;
  /** Spawn to the server saying it is ready (listening, pages prepared), and its first page request, cold. */
  startupMs: number;
  firstRenderMs: number;
  throughput: ThroughputResult[];
  echo: { renderedMs: number[]; parsedMs: number[] };
  ctrlC: number[];
  firstPaintMs: number[];
  reattach?: ReattachResult;
  stateEnded?: LoadResult;
  stateLive?: LoadResult;
  stateEndedPaced?: LoadResult;
  stateLivePaced?: LoadResult;
}

function ensureBenchDependencies(): void {
  if (fs.existsSync(path.join(BENCH, "node_modules", "wetty", "build", "main.js"))) return;
  console.log("Installing the benchmark's peers (bench/package-lock.json) with npm ci --prefix bench ...");
  const result = spawnSync("npm", ["ci", "--prefix", BENCH, "--no-audit", "--no-fund"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("Could not install bench/ dependencies (npm ci --prefix bench failed)");
}

const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const mb = (bytes: number) => bytes / 1024 / 1024;

interface Running {
  readonly name: TargetName;
  readonly target: Target & { dataDir?: string };
  readonly dir: string;
  readonly context: BrowserContext;
  page?: Page;
  readonly result: TargetResult;
}

/** The checkout "ours-b" runs: another build to compare with this one in the same rounds. */
function oursB(): string {
  const root = process.env.STUDYLOOP_ROOT_B;
  if (!root) throw new Error("BENCH_ONLY names ours-b: set STUDYLOOP_ROOT_B to the checkout whose build it runs.");
  return root;
}

async function startTarget(browser: Browser, name: TargetName): Promise<Running> {
  const dir = workDir();
  const spawned = performance.now();
  const target: Target & { dataDir?: string } =
    name === "ours"
      ? await startOurs(dir)
      : name === "ours-norec"
        ? await startOurs(dir, { recording: false })
        : name === "ours-b"
          ? await startOurs(dir, { root: oursB() })
          : name === "wetty"
            ? await startWetty(dir)
            : await startBare(dir);
  const startupMs = performance.now() - spawned;
  log(`${name}: server pid ${target.pid} at ${target.url}, ready in ${startupMs.toFixed(0)} ms`);
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ path: path.join(BENCH, "lib", "probe.js") });
  // BENCH_TEXT_OUTPUT=1: ours' page takes output as strings, as before output went as bytes.
  if (target.dataDir && process.env.BENCH_TEXT_OUTPUT === "1") await context.addInitScript(TEXT_OUTPUT);
  if (target.dataDir) {
    seedEndedSessions(target.dataDir);
    log(`${name}: seeded ${SEEDED_SESSIONS} ended sessions`);
  }
  // The first request of the terminal page after start: what the server loads on demand, cold.
  const warming = performance.now();
  await target.warm();
  const firstRenderMs = performance.now() - warming;
  log(`${name}: first page render (cold) ${firstRenderMs.toFixed(0)} ms`);
  const result: TargetResult = {
    cols: 0,
    rows: 0,
    rssIdle: 0,
    rssLive: 0,
    rssSettled: 0,
    rssFlood: 0,
    startupMs,
    firstRenderMs,
    throughput: [],
    echo: { renderedMs: [], parsedMs: [] },
    ctrlC: [],
    firstPaintMs: [],
  };
  return { name, target, dir, context, result };
}

async function stopTarget(running: Running): Promise<void> {
  await running.context.close().catch(() => undefined);
  await running.target.stop();
  fs.rmSync(running.dir, { recursive: true, force: true });
}

/**
 * Runs every figure. The pipelines are all up at once and each timed figure is taken in turns
 * (ours, wetty, bare, ours, ...), so a change in what else the machine is doing falls on all three
 * alike instead of on whichever ran at that moment.
 */
async function benchAll(browser: Browser, names: TargetName[]): Promise<Partial<Record<TargetName, TargetResult>>> {
  const all: Running[] = [];
  try {
    for (const name of names) all.push(await startTarget(browser, name));
    await sleep(2_000);
    for (const r of all) r.result.rssIdle = rssBytes(r.target.pid) ?? 0;

    let size = GEOMETRY;
    for (const r of all) {
      r.page = await r.target.open(r.context, size);
      const termSize = await r.page.evaluate(() => ({ cols: window.__bench.term!.cols, rows: window.__bench.term!.rows }));
      Object.assign(r.result, termSize);
      size ??= termSize;
      const viewport = r.page.viewportSize();
      log(`${r.name}: terminal ${termSize.cols}x${termSize.rows} in a ${viewport?.width}x${viewport?.height} viewport`);
    }
    await sleep(2_000);
    for (const r of all) r.result.rssLive = rssBytes(r.target.pid) ?? 0;
    await sleep(LIVE_SETTLE_MS);
    for (const r of all) r.result.rssSettled = rssBytes(r.target.pid) ?? 0;

    for (let round = 0; round < RUNS; round++) {
      for (const r of all) {
        const run = await throughput(r.page!, r.target.pid);
        r.result.throughput.push(run);
        r.result.rssFlood = Math.max(r.result.rssFlood, run.peakRssBytes);
        log(
          `${r.name}: throughput ${run.mbPerSecond.toFixed(2)} MB/s (${run.seconds.toFixed(2)} s, of which the parser waited ${run.starvedSeconds.toFixed(2)} s; peak RSS ${mb(run.peakRssBytes).toFixed(0)} MB)`,
        );
      }
    }
    const full = all.filter((r) => !THROUGHPUT_ONLY.includes(r.name));
    for (let block = 0; block < ECHO_BLOCKS; block++) {
      for (const r of full) {
        const part = await echo(r.page!, ECHO_KEYS / ECHO_BLOCKS);
        r.result.echo.renderedMs.push(...part.renderedMs);
        r.result.echo.parsedMs.push(...part.parsedMs);
      }
    }
    for (const r of full) {
      log(
        `${r.name}: echo p50 ${summarize.p50(r.result.echo.renderedMs).toFixed(2)} ms, p99 ${summarize.p99(r.result.echo.renderedMs).toFixed(2)} ms`,
      );
    }
    for (let round = 0; round < CTRL_C_RUNS; round++) {
      for (const r of full) r.result.ctrlC.push(...(await ctrlC(r.page!, 1)).ms);
    }
    for (const r of full) log(`${r.name}: Ctrl-C ${r.result.ctrlC.map((m) => m.toFixed(0)).join(", ")} ms`);
    for (let round = 0; round < FIRST_PAINT_RUNS; round++) {
      for (const r of full) {
        const url =
          r.name === "ours" || r.name === "ours-b"
            ? `${r.target.url}/study`
            : r.name === "bare"
              ? `${r.target.url}/?cols=${r.result.cols}&rows=${r.result.rows}`
              : r.target.url;
        r.result.firstPaintMs.push(...(await firstPaint(r.context, url, 1, r.page!.viewportSize())));
      }
    }
    for (const r of full) log(`${r.name}: first paint ${r.result.firstPaintMs.map((m) => m.toFixed(0)).join(", ")} ms`);

    const ours = all.find((r) => r.name === "ours");
    if (ours) {
      const { target, result } = ours;
      const re = await reattach(ours.page!, `${target.url}/study`, REATTACH_RUNS);
      ours.page = re.page;
      result.reattach = re.result;
      log(
        `ours: reattach: interactive ${re.result.interactiveMs.map((m) => m.toFixed(0)).join(", ")} ms, ${(re.result.wireBytes / 1024).toFixed(0)} KB on the wire; screen painted ${re.result.paintedMs.map((m) => m.toFixed(0)).join(", ")} ms, terminal restored ${re.result.ms.map((m) => m.toFixed(0)).join(", ")} ms (from the attach request ${re.result.fromAttachMs.map((m) => m.toFixed(0)).join(", ")} ms), snapshot ${(re.result.snapshotBytes / 1024).toFixed(0)} KB`,
      );
      const stateUrl = `${target.url}/api/session/state`;
      const load = { total: STATE_REQUESTS, concurrency: STATE_CONCURRENCY, warmup: 200, maxSeconds: 60 };
      const paced = { rate: STATE_RATE, seconds: STATE_PACED_SECONDS };
      result.stateLive = await loadTest(stateUrl, load);
      result.stateLivePaced = await pacedTest(stateUrl, paced);
      log(
        `ours: state (live) ${result.stateLive.perSecond.toFixed(0)} req/s, p99 ${result.stateLive.p99Ms.toFixed(2)} ms at ${STATE_CONCURRENCY} connections; p99 ${result.stateLivePaced.p99Ms.toFixed(2)} ms at ${STATE_RATE} req/s`,
      );
      await ours.page!.close();
      const ended = await fetch(`${target.url}/api/session/end`, { method: "POST", headers: { origin: target.url } });
      if (!ended.ok) throw new Error(`Could not end the benchmark session: ${ended.status}`);
      result.stateEnded = await loadTest(stateUrl, load);
      result.stateEndedPaced = await pacedTest(stateUrl, paced);
      log(
        `ours: state (ended) ${result.stateEnded.perSecond.toFixed(0)} req/s, p99 ${result.stateEnded.p99Ms.toFixed(2)} ms at ${STATE_CONCURRENCY} connections; p99 ${result.stateEndedPaced.p99Ms.toFixed(2)} ms at ${STATE_RATE} req/s`,
      );
    }
    return Object.fromEntries(all.map((r) => [r.name, r.result]));
  } finally {
    for (const r of all) await stopTarget(r);
  }
}

function rows(r: Partial<Record<TargetName, TargetResult>>): Row[] {
  const pick = (f: (t: TargetResult) => number | undefined) => ({
    ours: r.ours ? (f(r.ours) ?? null) : null,
    wetty: r.wetty ? (f(r.wetty) ?? null) : null,
    bare: r.bare ? (f(r.bare) ?? null) : null,
  });
  const within = (ours: number | null, bare: number | null, wetty: number | null, higherIsBetter: boolean) => {
    if (ours === null || bare === null) return null;
    const nearBare = higherIsBetter ? ours >= 0.95 * bare : ours <= 1.1 * bare;
    const aheadOfWetty = wetty === null ? true : higherIsBetter ? ours > wetty : ours < wetty;
    return nearBare && aheadOfWetty;
  };
  const below = (value: number | null, limit: number) => (value === null ? null : value < limit);
  const noSnapshot = "no server-side screen: a reload starts a new shell, so there is nothing to restore";
  const noDb = "has no session database or state API";
  const tp = pick((t) => summarize.p50(t.throughput.map((x) => x.mbPerSecond)));
  // The share of a flood's time the page's parser waited for data: what the page was not given, not what it could not do.
  const starved = pick((t) => summarize.p50(t.throughput.map((x) => (x.starvedSeconds / x.seconds) * 100)));
  const norec = r["ours-norec"]?.throughput.length ? summarize.p50(r["ours-norec"].throughput.map((x) => x.mbPerSecond)) : null;
  const noPeer = "the peers do not record sessions";
  const b = r["ours-b"]?.throughput.length ? r["ours-b"] : undefined;
  const e50 = pick((t) => summarize.p50(t.echo.renderedMs));
  const e99 = pick((t) => summarize.p99(t.echo.renderedMs));
  const e50parsed = pick((t) => summarize.p50(t.echo.parsedMs));
  const cc = pick((t) => summarize.p50(t.ctrlC));
  const ccMax = pick((t) => summarize.max(t.ctrlC));
  // A page load that painted no screen (or a wrong one) fails the figure rather than leaving the median.
  const fcp = pick((t) => (t.firstPaintMs.length ? summarize.p50(t.firstPaintMs) : undefined));
  const raPainted = pick((t) =>
    t.reattach ? (t.reattach.paintedMs.some(Number.isNaN) ? Number.NaN : summarize.p50(t.reattach.paintedMs)) : undefined,
  );
  const ra = pick((t) => (t.reattach ? summarize.p50(t.reattach.ms) : undefined));
  const raAttach = pick((t) => (t.reattach ? summarize.p50(t.reattach.fromAttachMs) : undefined));
  const raSize = pick((t) => (t.reattach ? t.reattach.snapshotBytes / 1024 : undefined));
  const raWire = pick((t) => (t.reattach ? t.reattach.wireBytes / 1024 : undefined));
  const raInteractive = pick((t) =>
    t.reattach ? (t.reattach.interactiveMs.some(Number.isNaN) ? Number.NaN : summarize.p50(t.reattach.interactiveMs)) : undefined,
  );
  const idle = pick((t) => mb(t.rssIdle));
  const live = pick((t) => mb(t.rssLive));
  const settled = pick((t) => mb(t.rssSettled));
  const flood = pick((t) => mb(t.rssFlood));
  const floodGrowth = pick((t) => mb(t.rssFlood - t.rssSettled));
  const startup = pick((t) => t.startupMs);
  const firstRender = pick((t) => t.firstRenderMs);
  const sEndedRps = pick((t) => t.stateEnded?.perSecond);
  const sEndedP99 = pick((t) => t.stateEnded?.p99Ms);
  const sLiveRps = pick((t) => t.stateLive?.perSecond);
  const sLiveP99 = pick((t) => t.stateLive?.p99Ms);
  const sEndedPacedP99 = pick((t) => t.stateEndedPaced?.p99Ms);
  const sLivePacedP99 = pick((t) => t.stateLivePaced?.p99Ms);
  return [
    {
      figure: `1. throughput, ${FLOOD_BYTES / 1e6} MB mixed ANSI (median of ${RUNS})`,
      unit: "MB/s",
      ...tp,
      goal: { text: ">= 0.95x bare, > wetty", met: within(tp.ours, tp.bare, tp.wetty, true) },
    },
    {
      figure: "1. of the flood's time, the page's parser waiting for data (median %)",
      unit: "%",
      ...starved,
    },
    {
      figure: `1. throughput with recording off (STUDYLOOP_RECORDING_MAX_MB=0), same rounds`,
      unit: "MB/s",
      ours: norec,
      wetty: null,
      bare: null,
      na: { wetty: noPeer, bare: noPeer },
    },
    {
      figure: "1. recording's cost: throughput with recording on / off",
      unit: "x",
      ours: tp.ours !== null && norec ? tp.ours / norec : null,
      wetty: null,
      bare: null,
      na: { wetty: noPeer, bare: noPeer },
      goal: { text: ">= 0.9", met: tp.ours !== null && norec ? tp.ours / norec >= 0.9 : null },
    },
    {
      figure: `2. echo p50 (${ECHO_KEYS} keys, to rendered)`,
      unit: "ms",
      ...e50,
      goal: { text: "<= 1.1x bare, < wetty", met: within(e50.ours, e50.bare, e50.wetty, false) },
    },
    {
      figure: `2. echo p99 (${ECHO_KEYS} keys, to rendered)`,
      unit: "ms",
      ...e99,
      goal: { text: "<= 1.1x bare, < wetty", met: within(e99.ours, e99.bare, e99.wetty, false) },
    },
    { figure: "2. echo p50, to parsed (before the frame that shows it)", unit: "ms", ...e50parsed },
    // An A/B in the same rounds: another checkout's build in the ours column, the same peers beside it.
    ...(b
      ? ([
          {
            figure: "1/2. ours-b (STUDYLOOP_ROOT_B's build): throughput, same rounds",
            unit: "MB/s" as const,
            ...tp,
            ours: summarize.p50(b.throughput.map((x) => x.mbPerSecond)),
          },
          { figure: "1/2. ours-b: echo p50, to rendered", unit: "ms" as const, ...e50, ours: summarize.p50(b.echo.renderedMs) },
          { figure: "1/2. ours-b: echo p50, to parsed", unit: "ms" as const, ...e50parsed, ours: summarize.p50(b.echo.parsedMs) },
        ] satisfies Row[])
      : []),
    {
      figure: `3. Ctrl-C under yes flood, to prompt (median of ${CTRL_C_RUNS})`,
      unit: "ms",
      ...cc,
      goal: { text: "< 200 ms", met: below(cc.ours, 200) },
    },
    {
      figure: `3. Ctrl-C under yes flood, worst of ${CTRL_C_RUNS}`,
      unit: "ms",
      ...ccMax,
      goal: { text: "< 200 ms", met: below(ccMax.ours, 200) },
    },
    {
      figure: `4. page load to first paint (the floor: ours shows the live screen in it; median of ${FIRST_PAINT_RUNS})`,
      unit: "ms",
      ...fcp,
    },
    {
      figure: `4. reattach, page load to interactive (attach acknowledged and terminal on the page; median of ${REATTACH_RUNS})`,
      unit: "ms",
      ...raInteractive,
      na: { wetty: noSnapshot, bare: noSnapshot },
      goal: { text: "<= 150 ms", met: below(raInteractive.ours, 150.001) },
    },
    {
      figure: `4. reattach, page load to the screen painted (server-rendered; median of ${REATTACH_RUNS})`,
      unit: "ms",
      ...raPainted,
      na: { wetty: noSnapshot, bare: noSnapshot },
      goal: { text: "< 150 ms", met: below(raPainted.ours, 150) },
    },
    {
      figure: "4. reattach, page load to the terminal restored, 10,000 lines of scrollback",
      unit: "ms",
      ...ra,
      na: { wetty: noSnapshot, bare: noSnapshot },
      goal: { text: "<= 250 ms", met: below(ra.ours, 250.001) },
    },
    {
      figure: "4. reattach, of which attach request to restored screen",
      unit: "ms",
      ...raAttach,
      na: { wetty: noSnapshot, bare: noSnapshot },
    },
    { figure: "4. reattach snapshot size (as xterm.js parses it)", unit: "KB", ...raSize, na: { wetty: noSnapshot, bare: noSnapshot } },
    {
      figure: "4. reattach snapshot on the wire (WebSocket bytes, attach to restored)",
      unit: "KB",
      ...raWire,
      na: { wetty: noSnapshot, bare: noSnapshot },
    },
    { figure: "5. server RSS, idle", unit: "MB", ...idle },
    { figure: "5. server RSS, one live session, 2 s after its page attached", unit: "MB", ...live },
    {
      figure: `5. server RSS, one live session, settled (${LIVE_SETTLE_MS / 1000} s later)`,
      unit: "MB",
      ...settled,
      goal: { text: "<= 150 MB", met: settled.ours === null ? null : settled.ours <= 150 },
    },
    { figure: "5. server RSS, peak during the flood", unit: "MB", ...flood },
    {
      figure: "5. server RSS, what the flood adds (peak - settled; ours records it)",
      unit: "MB",
      ...floodGrowth,
      goal: { text: "<= 50 MB", met: floodGrowth.ours === null ? null : floodGrowth.ours <= 50 },
    },
    {
      figure: "5. start-up: spawn to ready (listening, pages prepared)",
      unit: "ms",
      ...startup,
      goal: { text: "<= 1500 ms", met: below(startup.ours, 1500.001) },
    },
    {
      figure: "5. first page render, cold (first GET of the terminal page after start)",
      unit: "ms",
      ...firstRender,
      goal: { text: "<= 300 ms", met: below(firstRender.ours, 300.001) },
    },
    {
      figure: `6. GET /api/session/state, ${SEEDED_SESSIONS} ended, none live: throughput at ${STATE_CONCURRENCY} connections`,
      unit: "req/s",
      ...sEndedRps,
      na: { wetty: noDb, bare: noDb },
    },
    {
      figure: `6. ... p99 at ${STATE_RATE} req/s`,
      unit: "ms",
      ...sEndedPacedP99,
      na: { wetty: noDb, bare: noDb },
      goal: { text: "< 10 ms", met: below(sEndedPacedP99.ours, 10) },
    },
    {
      figure: `6. ... p99 at ${STATE_CONCURRENCY} connections (saturated)`,
      unit: "ms",
      ...sEndedP99,
      na: { wetty: noDb, bare: noDb },
      goal: { text: "< 10 ms", met: below(sEndedP99.ours, 10) },
    },
    {
      figure: `6. GET /api/session/state, ${SEEDED_SESSIONS} ended + 1 live: throughput at ${STATE_CONCURRENCY} connections`,
      unit: "req/s",
      ...sLiveRps,
      na: { wetty: noDb, bare: noDb },
    },
    {
      figure: `6. ... p99 at ${STATE_RATE} req/s`,
      unit: "ms",
      ...sLivePacedP99,
      na: { wetty: noDb, bare: noDb },
      goal: { text: "< 10 ms", met: below(sLivePacedP99.ours, 10) },
    },
    {
      figure: `6. ... p99 at ${STATE_CONCURRENCY} connections (saturated)`,
      unit: "ms",
      ...sLiveP99,
      na: { wetty: noDb, bare: noDb },
      goal: { text: "< 10 ms", met: below(sLiveP99.ours, 10) },
    },
  ];
}

function chromiumVersion(browser: Browser): string {
  return browser.version();
}

async function main(): Promise<void> {
  if (ONLY.some((n) => (n as string) !== "history")) ensureBenchDependencies();
  const loadBefore = os.loadavg()[0]!;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: Partial<Record<TargetName, TargetResult>> = {};
  try {
    const names = (["ours", "ours-norec", "ours-b", "wetty", "bare"] as const).filter((n) => ONLY.includes(n));
    if (names.length > 0) Object.assign(results, await benchAll(browser, names));
    const history: RouteFigure[] = HISTORY ? await benchHistory(log) : [];
    const machine = {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      chromium: chromiumVersion(browser),
      kernel: os.release(),
      /** One-minute load average before and after the run (the run itself adds about 2). */
      loadAverage: { before: Math.round(loadBefore * 100) / 100, after: Math.round(os.loadavg()[0]! * 100) / 100 },
    };
    const table = [names.length > 0 ? renderTable(rows(results)) : "", history.length > 0 ? renderHistoryTable(history) : ""]
      .filter(Boolean)
      .join("\n\n");
    const sizes = (["ours", "wetty", "bare"] as const)
      .filter((n) => results[n])
      .map((n) => `${n} ${results[n]!.cols}x${results[n]!.rows}`)
      .join(", ");
    console.log("");
    console.log(table);
    console.log("");
    console.log(`terminal sizes: ${sizes}${GEOMETRY ? ` (asked for ${GEOMETRY.cols}x${GEOMETRY.rows})` : ""}`);
    console.log(
      `machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Linux ${machine.kernel}, node ${machine.node}, chromium ${machine.chromium}`,
    );
    const { before, after } = machine.loadAverage;
    // The run itself keeps both cores busy, so only the load before it says whether others were running.
    console.log(
      `load average (1 min): ${before} before the run, ${after} after it${before > machine.cpus / 2 ? " (the machine was already busy with other work: figures are pessimistic)" : ""}`,
    );
    const out = path.join(BENCH, "results");
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, JSON.stringify({ machine, results, history, table }, null, 2));
    console.log(`raw figures: ${path.relative(ROOT, file)}`);
  } finally {
    await browser.close();
  }
}

await main();
