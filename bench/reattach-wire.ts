// `node --import tsx bench/reattach-wire.ts`: reattach as the server does it, without a browser. A
// session's shell prints the reattach test's 12,000 lines (10,000 kept as scrollback), its viewer
// leaves (the snapshot is cached), then a Node socket.io client reattaches BENCH_REATTACH_RUNS times,
// sending a key right behind its attach request as a page typing at once does, and the run prints per
// attach: the ack, the replay received (and inflated when packed), and the key's echo, in ms from the
// attach request, plus the replay's bytes on the wire. BENCH_PACKED=0 asks for the replay as a string
// (what a server before packed replays sends; such a server refuses the `packed` field).
import fs from "node:fs";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { socketParser } from "../common/realtime/socket-parser.ts";
import type { ClientToServerEvents, ServerToClientEvents, TerminalFrameView } from "../server/realtime/events.ts";
import { unpackReplay } from "../common/terminal/replay-unpack.ts";
import { sleep } from "./lib/proc.ts";
import { FLOOD, ROOT, shellArgs, startStudyLoopWeb, workDir } from "./lib/targets.ts";
import { REATTACH_LINES } from "./lib/measure.ts";

const RUNS = Number(process.env.BENCH_REATTACH_RUNS ?? 10);
const PACKED = process.env.BENCH_PACKED !== "0";
const root = process.env.STUDYLOOP_ROOT ?? ROOT;

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const connect = async (url: string): Promise<Client> => {
  const socket: Client = io(url, {
    path: "/socket.io",
    transports: ["websocket"],
    extraHeaders: { origin: url },
    forceNew: true,
    parser: socketParser,
  });
  await new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(undefined));
    socket.once("connect_error", reject);
  });
  return socket;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = workDir();
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(
    path.join(dataDir, "studyloop.config.json"),
    JSON.stringify({ agents: { bench: { label: "Benchmark shell", command: "/bin/bash", args: shellArgs(dir) } } }),
  );
  const server = await startStudyLoopWeb(root, dataDir, { timeoutMs: 300_000 });
  const url = server.url.replace(/\/$/, "");
  try {
    const started = await fetch(`${url}/api/session/start`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
    });
    if (!started.ok) throw new Error(`Could not start a session: ${started.status} ${await started.text()}`);
    const { session } = (await started.json()) as { session: { id: string } };
    const sessionId = session.id;

    // The scrollback: the reattach test's lines, printed to a viewer that acknowledges at once.
    const first = await connect(url);
    let seen = "";
    first.on("terminal:frame", (_id, frame) => {
      if (frame.type !== "output" && frame.type !== "replay") return;
      first.emit("terminal:ack", { sessionId, chars: frame.data.length });
      seen = (seen + frame.data).slice(-200);
    });
    await first.emitWithAck("terminal:attach", { sessionId });
    first.emit("terminal:resize", { sessionId, cols: 108, rows: 39, device: "laptop" });
    first.emit("terminal:input", { sessionId, data: `${process.execPath} ${FLOOD} --lines ${REATTACH_LINES}; echo fl''ood-done\r` });
    while (!seen.includes("flood-done")) await sleep(20);
    first.close();
    await sleep(1_500);

    const rows: { ack: number; replay: number; echo: number; wire: number; chars: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const socket = await connect(url);
      let wire = 0;
      const raw = (socket.io.engine as unknown as { on(e: "data", f: (d: string | ArrayBuffer | Buffer) => void): void }).on.bind(
        socket.io.engine,
      );
      raw("data", (d) => (wire += typeof d === "string" ? Buffer.byteLength(d) : d.byteLength));
      const t0 = performance.now();
      const times = { ack: NaN, replay: NaN, echo: NaN, chars: 0 };
      let text = "";
      const done = new Promise<void>((resolve) => {
        socket.on("terminal:frame", (_id, frame: TerminalFrameView) => {
          if (frame.type === "packed-replay" || frame.type === "replay") {
            const data = frame.type === "replay" ? frame.data : Buffer.from(unpackReplay(frame.bytes)).toString("utf8");
            times.replay = performance.now() - t0;
            times.chars = data.length;
            socket.emit("terminal:ack", { sessionId, chars: data.length });
          } else if (frame.type === "output") {
            socket.emit("terminal:ack", { sessionId, chars: frame.data.length });
            text += frame.data;
            if (text.includes(`key-${run}`) && Number.isNaN(times.echo)) times.echo = performance.now() - t0;
          }
          if (!Number.isNaN(times.replay) && !Number.isNaN(times.echo)) resolve();
        });
      });
      socket.emit("terminal:attach", { sessionId, ...(PACKED ? { packed: true } : {}) }, (result) => {
        times.ack = performance.now() - t0;
        if (!result.ok) throw new Error(result.error);
      });
      socket.emit("terminal:input", { sessionId, data: `: key-${run}\r` });
      await Promise.race([done, sleep(5_000)]);
      rows.push({ ...times, wire });
      socket.close();
      await sleep(500);
    }
    for (const r of rows)
      console.log(
        `ack ${r.ack.toFixed(1)} ms, replay ${r.replay.toFixed(1)} ms, key echoed ${r.echo.toFixed(1)} ms, ${(r.wire / 1024).toFixed(0)} KB received, snapshot ${(r.chars / 1024).toFixed(0)} K chars`,
      );
    const pick = (k: "ack" | "replay" | "echo") => median(rows.map((r) => r[k])).toFixed(1);
    console.log(
      `median of ${RUNS} (${PACKED ? "packed" : "string"} replay): ack ${pick("ack")} ms, replay ${pick("replay")} ms, key echoed ${pick("echo")} ms (NaN: never)`,
    );
  } finally {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
