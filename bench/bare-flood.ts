// `node --experimental-websocket --import tsx bench/bare-flood.ts`: the bare pipeline's server alone under
// the same flood as bench/server-flood.ts (BENCH_FLOOD_MB of the bench's mixed ANSI at 150x50, a Node
// viewer that acks every message at once), and its CPU: the floor ours' server is compared with.
import fs from "node:fs";
import os from "node:os";
import { sleep } from "./lib/proc.ts";
import { FLOOD, startBare, workDir } from "./lib/targets.ts";

const FLOOD_BYTES = Number(process.env.BENCH_FLOOD_MB ?? 20) * 1_000_000;
const TICKS = 100;

function cpuSeconds(pid: number): number {
  let total = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

async function main(): Promise<void> {
  const dir = workDir();
  const bare = await startBare(dir);
  try {
    const ws = new WebSocket(`${bare.url.replace("http", "ws")}/pty?cols=150&rows=50`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let tail = "";
    let done: (() => void) | undefined;
    let frames = 0;
    ws.onmessage = (event) => {
      frames++;
      const data = String(event.data);
      ws.send(`a${data.length}`);
      if ((tail + data).includes("\x1b]7777;done")) done?.();
      tail = data.slice(-16);
    };
    await sleep(2_000);
    const before = cpuSeconds(bare.pid);
    const t0 = performance.now();
    const framesBefore = frames;
    const finished = new Promise<void>((resolve) => (done = resolve));
    ws.send(`i${process.execPath} ${FLOOD} --bytes ${FLOOD_BYTES}\r`);
    await finished;
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `bare: ${FLOOD_BYTES / 1e6} MB in ${seconds.toFixed(2)} s; server CPU ${(cpuSeconds(bare.pid) - before).toFixed(2)} s; ${frames - framesBefore} frames; load average ${os.loadavg()[0]!.toFixed(2)}`,
    );
    ws.close();
  } finally {
    await bare.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
