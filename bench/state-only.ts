// The state rows of `npm run bench` alone, without a browser: `studyloop web` (the production build)
// with the bench's 10,000 ended sessions and one live pty session (a shell, no viewer), then
// GET /api/session/state at 4 saturating connections and at 100 req/s, as bench/run.ts takes them; the
// server's and this client's CPU a request.
// `node --experimental-websocket --import tsx bench/state-only.ts`; BENCH_STATE_REQUESTS sets the count;
// SERVER_CPU_PROF=DIR writes the server's CPU profile there; STUDYLOOP_ROOT=<checkout> runs that build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cpuMs } from "./lib/proc.ts";
import { loadTest, pacedTest, seedEndedSessions, SEEDED_SESSIONS } from "./lib/state-load.ts";
import { ROOT, startStudyLoopWeb } from "./lib/targets.ts";

const REQUESTS = Number(process.env.BENCH_STATE_REQUESTS ?? 4_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-state-"));
const dataDir = path.join(dir, "data");
fs.mkdirSync(dataDir);
fs.writeFileSync(
  path.join(dataDir, "studyloop.config.json"),
  JSON.stringify({ agents: { bench: { label: "Benchmark shell", command: "/bin/bash", args: ["--norc", "-i"] } } }),
);
const profile = process.env.SERVER_CPU_PROF;
// STUDYLOOP_ROOT: another checkout's build (a before/after comparison with this harness, as targets.ts).
const root = process.env.STUDYLOOP_ROOT ?? ROOT;
const server = await startStudyLoopWeb(root, dataDir, { nodeFlags: profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [] });
try {
  const url = server.url.replace(/\/$/, "");
  seedEndedSessions(dataDir);
  const started = await fetch(`${url}/api/session/start`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
  });
  if (!started.ok) throw new Error(`Could not start a session: ${started.status} ${await started.text()}`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const state = (await (await fetch(`${url}/api/session/state`)).json()) as { state: string };
  const stateUrl = `${url}/api/session/state`;
  const pid = server.child.pid!;
  const cpuBefore = cpuMs(pid) ?? 0;
  const clientBefore = process.cpuUsage();
  const live = await loadTest(stateUrl, { total: REQUESTS, concurrency: 4, warmup: 200, maxSeconds: 60 });
  // The server's CPU a request: what a busy machine distorts least (warm-up requests included in both).
  const perRequest = ((cpuMs(pid) ?? 0) - cpuBefore) / (live.requests + 200);
  // This process's CPU a request: the load generator shares the two cores, and its queue is in the latencies.
  const client = process.cpuUsage(clientBefore);
  const clientPerRequest = (client.user + client.system) / 1000 / (live.requests + 200);
  const paced = await pacedTest(stateUrl, { rate: 100, seconds: 10 });
  console.log(
    `state (${state.state}, ${SEEDED_SESSIONS} ended): ${live.perSecond.toFixed(0)} req/s, p50 ${live.p50Ms.toFixed(2)} ms, p99 ${live.p99Ms.toFixed(2)} ms, max ${live.maxMs.toFixed(1)} ms at 4 connections (${live.failures} failed), server CPU ${perRequest.toFixed(3)} ms a request, client CPU ${clientPerRequest.toFixed(3)} ms; p99 ${paced.p99Ms.toFixed(2)} ms at 100 req/s`,
  );
} finally {
  server.child.kill("SIGINT");
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
