// `node --experimental-websocket --import tsx bench/echo-server.ts`: a keystroke's round trip through
// the server alone, ours against the bare pipeline, without a browser: a Node client types a key into
// `cat` and waits for its echo, alternating between the servers key by key, so whatever else the
// machine does falls on all alike. Ours twice, in two sessions of two servers: its terminal on
// socket.io ("ours-socket") and on a terminal lane, as the page uses it ("ours-lane"). Also prints each server's CPU per key and at rest (10 s with the
// session live and nobody typing): a server that keeps busy at rest also wakes later to a key on a
// loaded machine. Knobs: ECHO_KEYS (400); SERVER_PROFILE=FILE: a CPU profile of ours' main thread
// while the keys are typed (inspector on 127.0.0.1), into FILE.
import fs from "node:fs";
import os from "node:os";
import { io, type Socket } from "socket.io-client";
import LaneSocket from "ws";
import { decodeLaneFrame, encodeLaneMessage, laneUrl } from "../common/terminal/lane-codec.ts";
import { socketParser } from "../common/realtime/socket-parser.ts";
import type { ClientToServerEvents, ServerToClientEvents } from "../server/realtime/events.ts";
import { inspector } from "./lib/inspector.ts";
import { sleep } from "./lib/proc.ts";
import { startBare, startOurs, workDir } from "./lib/targets.ts";
import { median, percentile } from "./lib/stats.ts";

const KEYS = Number(process.env.ECHO_KEYS ?? 400);
const TICKS = 100;
const PROFILE = process.env.SERVER_PROFILE;

/** CPU seconds (user + sys) of each thread of `pid`, by thread name ("main" for the process's own). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = tid === String(pid) ? "main" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

const cpuSeconds = (pid: number) => [...threadCpu(pid).values()].reduce((a, b) => a + b, 0);

/** Per-thread CPU ms between two samples, divided by `per`, largest first. */
function split(after: Map<string, number>, before: Map<string, number>, per: number): string {
  return [...after]
    .map(([k, v]) => [k, ((v - (before.get(k) ?? 0)) * 1000) / per] as const)
    .filter(([, v]) => v > 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(", ");
}

interface Client {
  name: string;
  pid: number;
  /** Sends one key and resolves with the ms until its echo came back. */
  key(letter: string): Promise<number>;
  send(data: string): void;
  close(): void;
  ms: number[];
}

function echoWaiter() {
  let waiting: { letter: string; t0: number; resolve: (ms: number) => void } | undefined;
  return {
    arm(letter: string, resolve: (ms: number) => void) {
      waiting = { letter, t0: performance.now(), resolve };
    },
    saw(data: string) {
      if (waiting && data.includes(waiting.letter)) {
        const w = waiting;
        waiting = undefined;
        w.resolve(performance.now() - w.t0);
      }
    },
  };
}

async function oursClient(url: string, pid: number, onLane: boolean): Promise<Client> {
  const res = await fetch(`${url}/api/session/start`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
  });
  if (!res.ok) throw new Error(`Could not start a session: ${res.status}`);
  const state = (await (await fetch(`${url}/api/session/state`)).json()) as { session?: { id: string } };
  const sessionId = state.session!.id;
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
    path: "/socket.io",
    transports: ["websocket"],
    extraHeaders: { origin: url },
    parser: socketParser,
  });
  const waiter = echoWaiter();
  socket.on("terminal:frame", (_id, frame) => {
    if (frame.type !== "output" && frame.type !== "replay") return;
    socket.emit("terminal:ack", { sessionId, chars: frame.data.length });
    if (frame.type === "output") waiter.saw(frame.data);
  });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  let lane: LaneSocket | undefined;
  if (onLane) {
    const ws = new LaneSocket(laneUrl(url, socket.id!, sessionId), { headers: { origin: url }, perMessageDeflate: false });
    ws.binaryType = "arraybuffer";
    const decoder = new TextDecoder();
    ws.on("message", (data: ArrayBuffer | Buffer, isBinary) => {
      const frame = decodeLaneFrame(isBinary ? (data as ArrayBuffer) : data.toString());
      if (frame?.type !== "output-bytes") return;
      ws.send(encodeLaneMessage({ kind: "ack", chars: frame.chars }));
      waiter.saw(decoder.decode(frame.bytes as Uint8Array));
    });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    lane = ws;
  }
  await new Promise<void>((resolve, reject) =>
    socket.emit("terminal:attach", { sessionId, lane: onLane }, (r) => (r.ok ? resolve() : reject(new Error(r.error)))),
  );
  socket.emit("terminal:resize", { sessionId, cols: 150, rows: 50, device: "laptop" });
  const send = lane
    ? (data: string) => lane.send(encodeLaneMessage({ kind: "input", data, binary: false }))
    : (data: string) => socket.emit("terminal:input", { sessionId, data });
  return {
    name: onLane ? "ours-lane" : "ours-socket",
    pid,
    ms: [],
    send,
    key: (letter) =>
      new Promise((resolve) => {
        waiter.arm(letter, resolve);
        send(letter);
      }),
    close: () => {
      lane?.close();
      socket.close();
    },
  };
}

async function bareClient(url: string, pid: number): Promise<Client> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/pty?cols=150&rows=50`);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const waiter = echoWaiter();
  ws.onmessage = (event) => waiter.saw(String(event.data));
  const send = (data: string) => ws.send(`i${data}`);
  return {
    name: "bare",
    pid,
    ms: [],
    send,
    key: (letter) =>
      new Promise((resolve) => {
        waiter.arm(letter, resolve);
        send(letter);
      }),
    close: () => ws.close(),
  };
}

async function main(): Promise<void> {
  const load = os.loadavg()[0]!.toFixed(2);
  const dirs = [workDir(), workDir(), workDir()];
  const ours = await startOurs(dirs[0]!, { nodeFlags: PROFILE ? ["--inspect=127.0.0.1:0"] : [] });
  const oursAgain = await startOurs(dirs[2]!);
  const bare = await startBare(dirs[1]!);
  try {
    await ours.warm();
    await oursAgain.warm();
    const clients = [
      await oursClient(ours.url, ours.pid, true),
      await oursClient(oursAgain.url, oursAgain.pid, false),
      await bareClient(bare.url, bare.pid),
    ];
    await sleep(2_000);
    for (const c of clients) c.send("cat\r");
    await sleep(1_000);
    const rest = clients.map((c) => cpuSeconds(c.pid));
    const restThreads = threadCpu(ours.pid);
    await sleep(10_000);
    const restCpu = clients.map((c, i) => (cpuSeconds(c.pid) - rest[i]!) / 10);
    const restSplit = split(threadCpu(ours.pid), restThreads, 10);
    const before = clients.map((c) => cpuSeconds(c.pid));
    const beforeThreads = threadCpu(ours.pid);
    const profiler = PROFILE ? await inspector(ours.output()) : undefined;
    await profiler?.start();
    const letters = "abcdefghijklmnopqrstuvwxyz";
    for (let i = 0; i < KEYS; i++) {
      for (const c of i % 2 === 0 ? clients : [...clients].reverse()) {
        if (i > 0 && i % 50 === 0) {
          c.send("\r");
          await sleep(20);
        }
        await sleep(5 + Math.random() * 10);
        c.ms.push(await c.key(letters[i % letters.length]!));
      }
    }
    const keyCpu = clients.map((c, i) => ((cpuSeconds(c.pid) - before[i]!) / KEYS) * 1000);
    const keySplit = split(threadCpu(ours.pid), beforeThreads, KEYS);
    if (profiler) {
      await profiler.stop(PROFILE!);
      profiler.close();
    }
    console.log(`\n${KEYS} keys each, alternating; load average ${load} before, ${os.loadavg()[0]!.toFixed(2)} after`);
    clients.forEach((c, i) => {
      const p = (q: number) => percentile(c.ms, q).toFixed(2);
      console.log(
        `${c.name}: echo round trip median ${median(c.ms).toFixed(2)} ms (p10 ${p(10)}, p90 ${p(90)}, p99 ${p(99)}); server CPU ${keyCpu[i]!.toFixed(2)} ms a key (incl. the wait between keys), at rest ${(restCpu[i]! * 1000).toFixed(1)} ms/s`,
      );
    });
    console.log(`ours-lane by thread, ms a key: ${keySplit}; at rest, ms/s: ${restSplit}`);
    for (const c of clients) c.close();
  } finally {
    await ours.stop();
    await oursAgain.stop();
    await bare.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
