// How long does taking in a flood's recording hold the server's main thread at once? A session's end
// takes in what the live index put off during a flood (server/recording/record-indexer.ts finish):
// here a BENCH_FLOOD_MB flood of mixed ANSI, recorded at 150x50, is taken in by the real indexer on a
// real SQLite file, while a 1 ms ticker measures each stretch between turns of the event loop and the
// process's CPU time in it (CPU, not wall time: a loaded machine's waits are not counted).
// For a side by side, copy this file into an older checkout and run it there.
// `node --import tsx bench/index-stall.ts`
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "../server/db/migrate.ts";
import { openDatabase } from "../server/db/client.ts";
import { encodeEvent, encodeHeader } from "../server/recording/asciicast.ts";
import { RecordIndexer } from "../server/recording/record-indexer.ts";
import { SearchIndex } from "../server/recording/search-index.ts";
import { floodLine } from "./workload/flood.mjs";

const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 10);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-index-"));
applyMigrations(path.join(dataDir, "studyloop.db"));
const db = openDatabase(path.join(dataDir, "studyloop.db"));
const id = crypto.randomUUID();
await db.studySession.create({ data: { id, topic: "flood", energy: 5, agent: "bench", transport: "pty", status: "live" } });
const dir = path.join(dataDir, "sessions", id);
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, "session.cast");
const out = fs.openSync(file, "w");
fs.writeSync(out, encodeHeader({ version: 2, width: 150, height: 50, timestamp: 1_700_000_000 }));
let chars = 0;
let chunk = "";
for (let i = 0, t = 0; chars < FLOOD_MB * 1024 * 1024; i++) {
  chunk += floodLine(i).replace(/\n/g, "\r\n");
  if (chunk.length >= 16 * 1024) {
    fs.writeSync(out, encodeEvent({ time: (t += 0.004), code: "o", data: chunk }));
    chars += chunk.length;
    chunk = "";
  }
}
fs.closeSync(out);

const indexer = new RecordIndexer(db, dataDir, new SearchIndex(db), (line) => console.log(line));
const state = indexer.live(id, file, Date.now());
const stretches: { cpuMs: number; wallMs: number }[] = [];
let lastWall = performance.now();
let lastCpu = process.cpuUsage();
const ticker = setInterval(() => {
  const wall = performance.now();
  const cpu = process.cpuUsage(lastCpu);
  stretches.push({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs: wall - lastWall });
  lastWall = wall;
  lastCpu = process.cpuUsage();
}, 1);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await indexer.finish(state);
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - t0;
clearInterval(ticker);
const docs = await db.searchDoc.count({ where: { sessionId: id, kind: "transcript" } });
const byCpu = stretches.map((s) => s.cpuMs).sort((a, b) => b - a);
const at = (q: number) => byCpu[Math.floor(byCpu.length * q)]!.toFixed(0);
console.log(
  `${(fs.statSync(file).size / 1e6).toFixed(1)} MB recording, ${docs} documents, ` +
    `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU in ${wall.toFixed(0)} ms; longest stretches between turns (CPU ms): ` +
    `${byCpu
      .slice(0, 5)
      .map((m) => m.toFixed(0))
      .join(", ")}; stretches over 50 ms CPU: ${byCpu.filter((m) => m > 50).length}, ` +
    `over 20 ms: ${byCpu.filter((m) => m > 20).length}; p99 ${at(0.01)} ms`,
);
await db.$disconnect();
fs.rmSync(dataDir, { recursive: true, force: true });
