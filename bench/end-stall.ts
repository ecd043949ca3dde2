// Does a session's end stall the server? `studyloop web` (the production build) runs one pty session
// whose agent prints BENCH_FLOOD_MB of mixed ANSI (a flood the live index puts off), then the
// session is ended while GET /api/session/state is asked 100 times a second; the latencies before
// and after the end are printed (open-loop: a stall delays every request due during it).
// `node --experimental-websocket --import tsx bench/end-stall.ts`
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { percentile } from "./lib/stats.ts";
import { ROOT, startStudyLoopWeb } from "./lib/targets.ts";

const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 20);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-end-"));
const dataDir = path.join(dir, "data");
fs.mkdirSync(dataDir);
const flood = path.join(ROOT, "bench", "workload", "flood.mjs");
fs.writeFileSync(
  path.join(dataDir, "studyloop.config.json"),
  JSON.stringify({
    agents: {
      bench: {
        label: "Benchmark flood",
        command: "/bin/bash",
        args: ["-c", `${process.execPath} ${flood} --bytes ${FLOOD_MB * 1024 * 1024}; exec /bin/bash --norc -i`],
      },
    },
  }),
);
const profile = process.env.SERVER_CPU_PROF;
const server = await startStudyLoopWeb(ROOT, dataDir, {
  nodeFlags: profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [],
  env: { ...process.env, COLUMNS: "150", LINES: "50" },
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
/** A GET's status, or 0 when it failed (counted, not thrown: the run goes on). */
const get = (url: string) =>
  new Promise<number>((resolve) => {
    http
      .get(url, { agent }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      })
      .on("error", () => resolve(0));
  });
try {
  const url = server.url.replace(/\/$/, "");
  const started = await fetch(`${url}/api/session/start`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
  });
  if (!started.ok) throw new Error(`Could not start a session: ${started.status} ${await started.text()}`);
  // Wait for the flood to be recorded: the recording stops growing.
  const recordings = path.join(dataDir, "sessions");
  const size = () => {
    let total = 0;
    for (const f of fs.readdirSync(recordings, { recursive: true }) as string[]) {
      const p = path.join(recordings, f);
      if (fs.statSync(p).isFile()) total += fs.statSync(p).size;
    }
    return total;
  };
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = fs.existsSync(recordings) ? size() : 0;
    if (now > FLOOD_MB * 1024 * 1024 && now === last) break;
    last = now;
  }
  console.log(`recorded ${(last / 1e6).toFixed(1)} MB`);
  await new Promise((r) => setTimeout(r, 3_000));
  const stateUrl = `${url}/api/session/state`;
  const rate = 100;
  const samples: { due: number; ms: number; status: number }[] = [];
  const t0 = performance.now();
  let endAt = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < rate * 12; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (i === rate * 2) {
      endAt = performance.now() - t0;
      pending.push(
        fetch(`${url}/api/session/end`, { method: "POST", headers: { origin: url } }).then((r) => {
          console.log(`end answered ${r.status} after ${(performance.now() - t0 - endAt).toFixed(0)} ms`);
        }),
      );
    }
    pending.push(get(stateUrl).then((status) => void samples.push({ due: due - t0, ms: performance.now() - due, status })));
  }
  await Promise.all(pending);
  const before = samples.filter((s) => s.due < endAt).map((s) => s.ms);
  const after = samples.filter((s) => s.due >= endAt).map((s) => s.ms);
  const fmt = (xs: number[]) =>
    `p50 ${percentile(xs, 50).toFixed(1)} p99 ${percentile(xs, 99).toFixed(1)} max ${Math.max(...xs).toFixed(0)} ms`;
  console.log(`state at ${rate}/s before the end: ${fmt(before)}; after it: ${fmt(after)}`);
  const failed = samples.filter((s) => s.status !== 200);
  if (failed.length) console.log(`not 200: ${failed.length} (${[...new Set(failed.map((s) => s.status))].join(", ")})`);
  const slow = samples.filter((s) => s.ms > 20);
  console.log(`over 20 ms: ${slow.map((s) => `${(s.due - endAt).toFixed(0)}:${s.ms.toFixed(0)}`).join(" ")}`);
  const stopping = performance.now();
  await server.stop();
  console.log(
    `stopped (SIGTERM to exit) in ${(performance.now() - stopping).toFixed(0)} ms, ${server.child.signalCode === "SIGKILL" ? "killed after 10 s" : `exit code ${server.child.exitCode}`}`,
  );
  if (process.env.SERVER_LOG) fs.writeFileSync(process.env.SERVER_LOG, server.output());
} finally {
  agent.destroy();
  await server.stop();
}
