// Socket storms against a live session (issue 39): `studyloop web` (the production build) with one
// live pty session and one page-like viewer attached, then
//   1. STORM_SOCKETS (600) socket.io connections opened at once from 127.0.0.1;
//   2. a burst of STORM_EVENTS (30,000) events on one socket;
// while GET /api/session/state is sampled every 100 ms. Prints how many connections were accepted or
// refused (and why), the state API's latency during each phase, and whether the live session kept
// running (its lease renewed, its viewer still getting output).
// `node --import tsx bench/socket-storm.ts`; STUDYLOOP_ROOT=<checkout> runs that build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { socketParser } from "../common/realtime/socket-parser.ts";
import { ROOT, startStudyLoopWeb } from "./lib/targets.ts";

const SOCKETS = Number(process.env.STORM_SOCKETS ?? 600);
const EVENTS = Number(process.env.STORM_EVENTS ?? 30_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-storm-"));
const dataDir = path.join(dir, "data");
fs.mkdirSync(dataDir);
fs.writeFileSync(
  path.join(dataDir, "studyloop.config.json"),
  JSON.stringify({ agents: { bench: { label: "Benchmark shell", command: "/bin/bash", args: ["--norc", "-i"] } } }),
);
const root = process.env.STUDYLOOP_ROOT ?? ROOT;
const server = await startStudyLoopWeb(root, dataDir);
const url = server.url.replace(/\/$/, "");
const headers = { origin: url };

function connect(transport: "websocket" | "polling"): Promise<{ socket: Socket; ok: boolean; error?: string }> {
  const socket = io(url, {
    path: "/socket.io",
    transports: [transport],
    reconnection: false,
    forceNew: true,
    parser: socketParser,
    extraHeaders: headers,
    timeout: 60_000,
  });
  return new Promise((resolve) => {
    socket.once("connect", () => resolve({ socket, ok: true }));
    socket.once("connect_error", (error) => resolve({ socket, ok: false, error: error.message }));
  });
}

interface Sampler {
  stop(): Promise<number[]>;
}

/** GET /api/session/state every 100 ms, each timed from send to body (a slow one delays the next). */
function sampleState(): Sampler {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      try {
        await (await fetch(`${url}/api/session/state`, { signal: AbortSignal.timeout(120_000) })).text();
        times.push(performance.now() - start);
      } catch {
        times.push(Number.POSITIVE_INFINITY);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

const describe = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `${times.length} samples, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`;
};

try {
  const started = await fetch(`${url}/api/session/start`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ topic: "storm", energy: 5, agent: "bench", transport: "pty" }),
  });
  if (!started.ok) throw new Error(`Could not start a session: ${started.status} ${await started.text()}`);
  const { session } = (await started.json()) as { session: { id: string } };
  // A viewer like a page: attached, acknowledging, and typing once per phase to see the session answer.
  const viewer = await connect("websocket");
  if (!viewer.ok) throw new Error(`The viewer could not connect: ${viewer.error}`);
  let seen = "";
  viewer.socket.on("terminal:frame" as never, (id: string, frame: { type: string; data?: string }) => {
    if (id === session.id && typeof frame.data === "string") {
      seen += frame.data;
      viewer.socket.emit("terminal:ack" as never, { sessionId: session.id, chars: frame.data.length });
    }
  });
  const attached = (await viewer.socket.emitWithAck("terminal:attach" as never, { sessionId: session.id })) as {
    ok: boolean;
    error?: string;
  };
  if (!attached.ok) throw new Error(`The viewer could not attach: ${attached.error}`);
  /** Types `echo WORD` and says how long the echo's output took to come back (or that it never did). */
  const answers = async (word: string) => {
    const start = performance.now();
    viewer.socket.emit("terminal:input" as never, { sessionId: session.id, data: `echo ${word}\r` });
    const until = Date.now() + 30_000;
    while (!seen.includes(`\r${word}\r\n`) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return seen.includes(`\r${word}\r\n`) ? `yes, in ${(performance.now() - start).toFixed(0)} ms` : "NO (30 s)";
  };
  console.log(`live session ${session.id}: answers before the storm: ${await answers("before")}`);

  // 1. Many connections at once.
  let sampler = sampleState();
  const t0 = performance.now();
  const transport = process.env.STORM_TRANSPORT as "websocket" | "polling" | undefined;
  const results = await Promise.all(Array.from({ length: SOCKETS }, (_, i) => connect(transport ?? (i % 2 ? "websocket" : "polling"))));
  const took = performance.now() - t0;
  const accepted = results.filter((r) => r.ok).length;
  const reasons = new Map<string, number>();
  for (const r of results) if (!r.ok) reasons.set(r.error ?? "?", (reasons.get(r.error ?? "?") ?? 0) + 1);
  console.log(`${SOCKETS} connections at once: ${accepted} accepted, ${SOCKETS - accepted} refused in ${(took / 1000).toFixed(1)} s`);
  for (const [reason, count] of reasons) console.log(`  refused x${count}: ${reason}`);
  await new Promise((r) => setTimeout(r, 3_000));
  console.log(`  state during: ${describe(await sampler.stop())}`);
  console.log(`  the live session answers: ${await answers("storm1")}`);
  for (const r of results) r.socket.disconnect();

  // 2. One socket's burst.
  const burst = await connect("websocket");
  if (!burst.ok) throw new Error(`The burst socket could not connect: ${burst.error}`);
  let disconnected = "";
  burst.socket.on("disconnect", (reason) => (disconnected = reason));
  sampler = sampleState();
  for (let i = 0; i < EVENTS; i++) burst.socket.emit("session:watch" as never, () => undefined);
  await new Promise((r) => setTimeout(r, 5_000));
  console.log(`${EVENTS} events on one socket: ${disconnected ? `the server closed it (${disconnected})` : "still connected"}`);
  console.log(`  state during: ${describe(await sampler.stop())}`);
  console.log(`  the live session answers: ${await answers("storm2")}`);
  const state = (await (await fetch(`${url}/api/session/state`)).json()) as { state: string };
  console.log(`  session state after both: ${state.state}`);
  burst.socket.disconnect();
  viewer.socket.disconnect();
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
