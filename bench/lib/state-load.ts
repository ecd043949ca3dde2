// GET /api/session/state under load, and the 10,000 ended sessions it reads past: rows written
// straight into the server's SQLite file the way Prisma stores them (ISO-8601 text times).
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { RawGetConnection } from "./raw-get.ts";
import { percentile } from "./stats.ts";

export const SEEDED_SESSIONS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/**
 * Inserts `count` ended pty sessions, one a day-ish apart and ending before now, each with a summary and
 * a small transcript, and the newest with a full-size one (a 10,000-line screen is about 1 MB).
 */
export function seedEndedSessions(dataDir: string, count = SEEDED_SESSIONS): void {
  const db = new Database(path.join(dataDir, "studyloop.db"), { timeout: 10_000 });
  try {
    const insert = db.prepare(`INSERT INTO study_sessions
      (id, topic, energy, agent, transport, status, started_at, ended_at, end_reason, exit_code, heartbeat_at,
       owner_host, owner_pid, attached_once, win_count, struggle_count, summary, transcript, transcript_at)
      VALUES (?, ?, ?, 'bench', 'pty', 'ended', ?, ?, ?, ?, ?, 'bench-host', 1, 1, ?, ?, ?, ?, ?)`);
    const now = Date.now() - 60 * 60_000;
    const smallTranscript = "\x1b[32mbench$\x1b[0m ls\r\n".repeat(100);
    const bigTranscript = "\x1b[33mscroll line\x1b[0m with some text on it, as an agent prints\r\n".repeat(16_000);
    const topics = ["closures", "recursion", "generators", "sql joins", "big-o", "graphs", "regex", "http"];
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const started = now - (count - i) * 3 * 60 * 60_000;
        const ended = started + (20 + (i % 40)) * 60_000;
        const summary = JSON.stringify({
          durationMinutes: Math.round((ended - started) / 60_000),
          wins: i % 3,
          struggles: i % 2,
          parked: [],
          topics: [],
        });
        insert.run(
          crypto.randomUUID(),
          topics[i % topics.length],
          1 + (i % 10),
          iso(started),
          iso(ended),
          i % 5 === 0 ? "agent-exited" : "ended-by-learner",
          i % 5 === 0 ? 0 : null,
          iso(ended),
          i % 4,
          i % 3,
          summary,
          i === count - 1 ? bigTranscript : smallTranscript,
          iso(ended),
        );
      }
    })();
  } finally {
    db.close();
  }
}

export interface LoadResult {
  requests: number;
  concurrency: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  failures: number;
}

/**
 * `total` GETs of `url` over `concurrency` keep-alive connections (after `warmup` unmeasured ones),
 * stopping early after `maxSeconds`: the loop is bounded in count and in time. Each connection is a
 * RawGetConnection (raw-get.ts): the client's own CPU an answer is a small part of the latency measured.
 */
export async function loadTest(
  url: string,
  opts: { total: number; concurrency: number; warmup: number; maxSeconds: number },
): Promise<LoadResult> {
  const target = new URL(url);
  if (target.hostname !== "127.0.0.1" && target.hostname !== "localhost")
    throw new Error(`The load test only targets loopback, not ${target.hostname}`);
  const connections = await Promise.all(Array.from({ length: opts.concurrency }, () => RawGetConnection.open(target)));
  try {
    for (let i = 0; i < opts.warmup; i++) await connections[i % connections.length]!.get();
    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    const started = performance.now();
    const deadline = started + opts.maxSeconds * 1000;
    const worker = async (connection: RawGetConnection) => {
      while (next < opts.total && performance.now() < deadline) {
        next++;
        const sent = performance.now();
        const status = await connection.get();
        if (status === 200) latencies.push(performance.now() - sent);
        else failures++;
      }
    };
    await Promise.all(connections.map(worker));
    const seconds = (performance.now() - started) / 1000;
    return {
      requests: next,
      concurrency: opts.concurrency,
      perSecond: next / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: Math.max(...latencies),
      failures,
    };
  } finally {
    for (const connection of connections) connection.close();
  }
}

/**
 * Open-loop latency: one GET every 1000/`rate` ms for `seconds`, each timed from the moment it was due
 * (so a slow answer that delays the next request is counted, not hidden). This is the latency a
 * learner's pages see at a steady `rate`, as opposed to `loadTest`, which saturates the server.
 */
export async function pacedTest(url: string, opts: { rate: number; seconds: number }): Promise<LoadResult> {
  const target = new URL(url);
  if (target.hostname !== "127.0.0.1" && target.hostname !== "localhost")
    throw new Error(`The load test only targets loopback, not ${target.hostname}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const req = http.get(target, { agent }, (res) => {
          res.on("data", () => undefined);
          res.on("end", () => {
            if (res.statusCode === 200) latencies.push(performance.now() - due);
            else failures++;
            resolve();
          });
        });
        req.on("error", () => {
          failures++;
          resolve();
        });
      }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    requests: total,
    concurrency: 0,
    perSecond: total / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: Math.max(...latencies),
    failures,
  };
}
