// `node --experimental-websocket --import tsx bench/server-flood.ts`: our server alone under a flood, without a browser, to
// find where its CPU and memory go. A Node socket.io viewer acknowledges every frame the moment it
// arrives (a viewer that is never the bottleneck), the shell prints BENCH_FLOOD_MB of the bench's mixed
// ANSI, and the run prints the server's CPU time per thread (main, the mirror's worker, the rest),
// its RSS before, at peak and after, and the wall time. Extra Node flags for the server (a CPU profile:
// SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof") and STUDYLOOP_RECORDING_MAX_MB=0 pass through.
import fs from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { io, type Socket } from "socket.io-client";
import { socketParser } from "../common/realtime/socket-parser.ts";
import { MEMORY_REPORT_PREFIX } from "../server/diagnostics/memory-report.ts";
import type { ClientToServerEvents, ServerToClientEvents } from "../server/realtime/events.ts";
import { inspector } from "./lib/inspector.ts";
import { rssBytes, sleep } from "./lib/proc.ts";
import { FLOOD, ROOT, shellArgs, startStudyLoopWeb, workDir } from "./lib/targets.ts";

const FLOOD_BYTES = Number(process.env.BENCH_FLOOD_MB ?? 20) * 1_000_000;
/** STUDYLOOP_ROOT: another checkout's build to run (a before/after comparison), this one's by default. */
const OUR_ROOT = process.env.STUDYLOOP_ROOT ?? ROOT;
const FLAGS = (process.env.SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean);
/** SERVER_PROFILE=FILE: the server's main thread is profiled during the flood (inspector on 127.0.0.1), into FILE. */
const PROFILE = process.env.SERVER_PROFILE;
/**
 * SERVER_HEAP_PROFILE=FILE: what the main thread allocates during the first flood, sampled every 32 KB
 * and counting what the collector has freed since (its garbage), into FILE (a .heapprofile for DevTools).
 */
const HEAP_PROFILE = process.env.SERVER_HEAP_PROFILE;
/** Floods in a row on the same session (BENCH_FLOODS, 1): whether memory grows from flood to flood. */
const FLOODS = Number(process.env.BENCH_FLOODS ?? 1);
/** SERVER_MEMORY=1: the main thread's process.memoryUsage() after each flood (through the inspector). */
const MEMORY = process.env.SERVER_MEMORY === "1";
/** SERVER_HEAP_SNAPSHOT=PREFIX: a heap snapshot of the main thread after each flood, PREFIX-N.heapsnapshot. */
const SNAPSHOT = process.env.SERVER_HEAP_SNAPSHOT;
/** Any of the four above: the server is started with its inspector on 127.0.0.1. */
const INSPECT = Boolean(PROFILE || HEAP_PROFILE || MEMORY || SNAPSHOT);
/** BENCH_BINARY=1: the viewer asks for output as bytes, as the page does (server/realtime/output-wire.ts). */
const BINARY = process.env.BENCH_BINARY === "1";
/** BENCH_SETTLE_MS: wait this long after the last flood and measure again (the indexer catching up). */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 0);
/** BENCH_PEAK_REPORT=1: the per-thread report asked for again and again during the flood; the one at the highest RSS is printed. */
const PEAK_REPORT = process.env.BENCH_PEAK_REPORT === "1";
/** BENCH_MEMORY_REPORT=0: no per-thread report (a server from before round 4 would die of the SIGUSR2). */
const REPORT = process.env.BENCH_MEMORY_REPORT !== "0";

const TICKS = 100; // USER_HZ on Linux

/**
 * The server's own memory report (`kill -USR2`: server/diagnostics/memory-report.ts), per thread, in
 * MiB, with what no isolate accounts for (RSS minus every heap's reserve and external memory: Node,
 * V8, compiled code, the allocator's free pages).
 */
function memoryReport(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const done = (line: string) => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(line);
    };
    const onData = (d: Buffer) => {
      text += d.toString();
      const at = text.indexOf(MEMORY_REPORT_PREFIX);
      const end = at < 0 ? -1 : text.indexOf("\n", at);
      if (end < 0) return;
      type T = { heapUsed: number; heapTotal: number; newSpace: number; external: number };
      const r = JSON.parse(text.slice(at + MEMORY_REPORT_PREFIX.length, end)) as { rss: number; main: T; mirrors: T[] };
      const thread = (t: T) => `heap ${t.heapUsed}/${t.heapTotal} (new ${t.newSpace}), external ${t.external}`;
      const held = [r.main, ...r.mirrors].reduce((sum, t) => sum + t.heapTotal + t.external, 0);
      done(
        `RSS ${r.rss}; main ${thread(r.main)}; ${r.mirrors.map((m, i) => `mirror ${i + 1} ${thread(m)}`).join("; ")}; native rest ${(r.rss - held).toFixed(1)}`,
      );
    };
    if (!REPORT) return resolve("(not asked: BENCH_MEMORY_REPORT=0)");
    const timer = setTimeout(() => done("(no memory report within 10 s)"), 10_000);
    child.stdout!.on("data", onData);
    child.kill("SIGUSR2");
  });
}

/** CPU seconds (user + sys) of each thread of `pid`, by thread name. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS;
      // BENCH_THREADS=1: each thread apart (the mirror worker and V8's helpers are all "node").
      const key = tid === String(pid) ? "main" : process.env.BENCH_THREADS === "1" ? `${name}#${tid}` : name;
      out.set(key, (out.get(key) ?? 0) + seconds);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

const diff = (after: Map<string, number>, before: Map<string, number>) =>
  [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0.005);

async function main(): Promise<void> {
  const dir = workDir();
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(
    path.join(dataDir, "studyloop.config.json"),
    JSON.stringify({ agents: { bench: { label: "Benchmark shell", command: "/bin/bash", args: shellArgs(dir) } } }),
  );
  // Started as a learner starts it (the command itself: its first line's settings apply, bench/lib/targets.ts);
  // the extra flags go after the environment's own NODE_OPTIONS, as a learner's would.
  const nodeFlags = [...FLAGS, ...(INSPECT ? ["--inspect=127.0.0.1:0"] : [])];
  const server = await startStudyLoopWeb(OUR_ROOT, dataDir, { nodeFlags, timeoutMs: 300_000 });
  const url = server.url.replace(/\/$/, "");
  const pid = server.child.pid!;
  try {
    await (await fetch(`${url}/study`)).text();
    await (await fetch(`${url}/`)).text();
    await sleep(1_000);
    const rssIdle = rssBytes(pid)!;
    const started = await fetch(`${url}/api/session/start`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
    });
    if (!started.ok) throw new Error(`Could not start a session: ${started.status} ${await started.text()}`);
    const state = (await (await fetch(`${url}/api/session/state`)).json()) as { session?: { id: string } };
    const sessionId = state.session?.id;
    if (!sessionId) throw new Error(`No live session in ${JSON.stringify(state).slice(0, 300)}`);
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: { origin: url },
      parser: socketParser,
    });
    let text = "";
    let marks = 0;
    let frames = 0;
    const waiters: { n: number; resolve: () => void }[] = [];
    socket.on("terminal:frame", (_id, frame) => {
      if (frame.type !== "output" && frame.type !== "replay" && frame.type !== "output-bytes") return;
      frames++;
      const data = frame.type === "output-bytes" ? Buffer.from(frame.bytes as Uint8Array).toString("utf8") : frame.data;
      socket.emit("terminal:ack", { sessionId, chars: frame.type === "output-bytes" ? frame.chars : data.length });
      if ((text + data).includes("\x1b]7777;done")) marks++;
      text = data.slice(-16);
      for (const w of waiters.splice(0))
        if (marks >= w.n) w.resolve();
        else waiters.push(w);
    });
    await new Promise<void>((resolve, reject) =>
      socket.emit("terminal:attach", { sessionId, binary: BINARY }, (r) => (r.ok ? resolve() : reject(new Error(r.error)))),
    );
    socket.emit("terminal:resize", { sessionId, cols: 150, rows: 50, device: "laptop" });
    socket.emit("terminal:fit", { sessionId });
    await sleep(2_000);
    const rssLive = rssBytes(pid)!;
    const profiler = INSPECT ? await inspector(server.output()) : undefined;
    const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
    console.log(`RSS (MiB): idle (after /study and /) ${mb(rssIdle)}, one live session ${mb(rssLive)}`);
    if (profiler) console.log(`main thread memory (MB), live: ${await profiler.memory()}`);
    console.log(`memory (MiB), live: ${await memoryReport(server.child)}`);
    for (let n = 1; n <= FLOODS; n++) {
      const before = rssBytes(pid)!;
      if (PROFILE && n === 1) await profiler!.start();
      if (HEAP_PROFILE && n === 1) await profiler!.startSampling();
      const cpuBefore = threadCpu(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid) ?? 0)), 50);
      const t0 = performance.now();
      const framesBefore = frames;
      const done = new Promise<void>((resolve) => waiters.push({ n: marks + 1, resolve }));
      socket.emit("terminal:input", { sessionId, data: `${process.execPath} ${FLOOD} --bytes ${FLOOD_BYTES}\r` });
      let flooding = true;
      let peakReport = { rss: 0, line: "" };
      const sampling = (async () => {
        while (PEAK_REPORT && flooding) {
          const line = await memoryReport(server.child);
          const rss = Number(/^RSS ([\d.]+)/.exec(line)?.[1] ?? 0);
          if (rss > peakReport.rss) peakReport = { rss, line };
          await sleep(250);
        }
      })();
      await done;
      flooding = false;
      await sampling;
      const seconds = (performance.now() - t0) / 1000;
      const cpuAfter = threadCpu(pid);
      if (PROFILE && n === 1) await profiler!.stop(PROFILE);
      if (HEAP_PROFILE && n === 1) await profiler!.stopSampling(HEAP_PROFILE);
      await sleep(3_000);
      clearInterval(sampler);
      const rssAfter = rssBytes(pid)!;
      const cpu = diff(cpuAfter, cpuBefore).sort((a, b) => b[1] - a[1]);
      console.log(
        `flood ${n}: ${FLOOD_BYTES / 1e6} MB in ${seconds.toFixed(2)} s (${(FLOOD_BYTES / 1e6 / seconds).toFixed(2)} MB/s); RSS live ${mb(rssLive)} MB, before ${mb(before)} MB, peak ${mb(peak)} MB (+${mb(peak - rssLive)} over live), 3 s after ${mb(rssAfter)} MB; ${frames - framesBefore} output frames`,
      );
      console.log(
        `  server CPU (s): ${cpu.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ")}; total ${cpu.reduce((s, [, v]) => s + v, 0).toFixed(2)}`,
      );
      if (PEAK_REPORT) console.log(`  memory (MiB) at the highest sampled RSS: ${peakReport.line}`);
      console.log(`  memory (MiB) 3 s after: ${await memoryReport(server.child)}`);
      if (profiler) {
        console.log(`  main thread memory (MB) 3 s after: ${await profiler.memory()}`);
        await profiler.collect();
        console.log(`  after a full GC: ${await profiler.memory()}, RSS ${mb(rssBytes(pid)!)} MB`);
        if (SNAPSHOT) await profiler.snapshot(`${SNAPSHOT}-${n}.heapsnapshot`);
      }
    }
    if (SETTLE_MS > 0) {
      await sleep(SETTLE_MS);
      console.log(`${SETTLE_MS / 1000} s after the last flood: RSS ${mb(rssBytes(pid)!)} MB`);
      console.log(`  memory (MiB): ${await memoryReport(server.child)}`);
      if (profiler) console.log(`  main thread memory (MB): ${await profiler.memory()}`);
    }
    profiler?.close();
    socket.close();
  } finally {
    // SERVER_LOG=FILE: what the server printed (its last 100 kB), to see what it logs during a flood.
    if (process.env.SERVER_LOG) fs.writeFileSync(process.env.SERVER_LOG, server.output());
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
