// The history section of `npm run bench` (BENCH_ONLY=history runs it alone): every page and API a
// learner reads, with 1,000 / 10,000 / 50,000 ended sessions in the database (SQLite, or PostgreSQL
// with BENCH_DATABASE, bench/history-postgres.ts). Each size gets its own
// data directory, migrated, seeded in one transaction with prepared statements (marks, parked
// thoughts, summaries, 5 KB transcripts, their search documents), then served by `studyloop web`
// (the production build); each route is asked 20 times in a row after 3 unmeasured requests.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { applyMigrations } from "../server/db/migrate.ts";
import { percentile } from "./lib/stats.ts";
import { ROOT, startStudyLoopWeb } from "./lib/targets.ts";
import { benchPostgresDatabase, seedPostgresHistory, stopBenchPostgres } from "./history-postgres.ts";
import type { SeedResult, SeedSession } from "./lib/seed-types.ts";

/** Unset: SQLite (the default). "postgresql": a private cluster; a postgresql:// URL: that server (history-postgres.ts). */
const BENCH_DATABASE = process.env.BENCH_DATABASE ?? "";
/** Which database the history figures are for, in the log and the table's heading. */
export const HISTORY_DATABASE = BENCH_DATABASE ? "PostgreSQL" : "SQLite";
export const HISTORY_SIZES = (process.env.BENCH_HISTORY_SIZES ?? "1000,10000,50000").split(",").map(Number);
const REQUESTS = Number(process.env.BENCH_HISTORY_REQUESTS ?? 20);
const WARMUP = 3;
/** The goal of issue 20: every page and API within this p95 at 50,000 sessions. */
export const HISTORY_GOAL_MS = 100;

const HOUR = 60 * 60_000;
const TOPICS = ["closures", "recursion", "generators", "sql joins", "big-o", "graphs", "regex", "http", "Closures ", "monads"];
const TRANSCRIPT_BYTES = 5 * 1024;
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

export type { SeedResult, SeedSession } from "./lib/seed-types.ts";

/**
 * Ended sessions, newest about an hour ago and one every 3 hours before it (so the 12-week charts
 * are full and old ones reach back years). Every 17th is a start that failed before any study (0
 * minutes, nothing marked); the others have 1-4 marks, a parked thought every other one, a summary
 * built as the app builds it, a 5 KB transcript and the search documents the app would write for it.
 */
export function* historyRows(count: number, now = Date.now()): Generator<SeedSession> {
  const line = "\x1b[32mtutor$\x1b[0m let us look at the next example together, step by step\r\n";
  const transcript = line.repeat(Math.ceil(TRANSCRIPT_BYTES / line.length)).slice(0, TRANSCRIPT_BYTES);
  const statuses = ["win", "struggling", "learning", "insight"] as const;
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const topic = TOPICS[i % TOPICS.length]!;
    const startedAt = now - HOUR - (count - i) * 3 * HOUR;
    const failed = i % 17 === 0;
    const endedAt = failed ? startedAt : startedAt + (20 + (i % 50)) * 60_000;
    const pausedMs = failed ? 0 : (i % 4) * 60_000;
    const sessionMarks = failed
      ? []
      : statuses.slice(0, 1 + (i % 4)).map((status, k) => ({ status, topic: TOPICS[(i + k) % TOPICS.length]! }));
    const sessionParked = !failed && i % 2 === 0 ? [`look up ${topic} example ${i}`] : [];
    const wins = sessionMarks.filter((m) => m.status === "win").map((m) => m.topic);
    const struggles = sessionMarks.filter((m) => m.status === "struggling" && !wins.includes(m.topic)).map((m) => m.topic);
    const summary = {
      durationMinutes: Math.round((endedAt - startedAt) / 60_000),
      focusMinutes: Math.round((endedAt - startedAt - pausedMs) / 60_000),
      wins,
      struggles,
      insights: sessionMarks.filter((m) => m.status === "insight").map((m) => m.topic),
      parked: sessionParked,
      forNextSession: [...struggles.map((t) => `Revisit ${t}`), ...sessionParked],
    };
    const summaryText = [...summary.wins, ...summary.struggles, ...summary.insights, ...summary.parked, ...summary.forNextSession];
    yield {
      session: {
        id,
        topic,
        energy: 1 + (i % 10),
        started_at: startedAt,
        ended_at: endedAt,
        end_reason: failed ? "agent-exited" : "ended-by-learner",
        exit_code: failed ? 1 : null,
        heartbeat_at: endedAt,
        paused_ms: pausedMs,
        win_count: wins.length,
        struggle_count: sessionMarks.filter((m) => m.status === "struggling").length,
        summary: JSON.stringify(summary),
        transcript: failed ? null : transcript,
        transcript_at: failed ? null : endedAt,
      },
      marks: sessionMarks.map((m, k) => ({
        id: crypto.randomUUID(),
        session_id: id,
        topic: m.topic,
        status: m.status,
        note: k === 0 ? `note ${i}` : null,
        source: k % 2 ? "agent" : "learner",
        created_at: iso(startedAt + (k + 1) * 60_000),
      })),
      parked: sessionParked.map((text) => ({
        id: crypto.randomUUID(),
        session_id: id,
        text,
        status: i % 6 === 0 ? "resolved" : "pending",
        created_at: iso(startedAt + 5 * 60_000),
      })),
      docs: [
        ...(summaryText.length
          ? [{ session_id: id, kind: "summary", at_ms: null, text: summaryText.join(" · "), created_at: iso(endedAt) }]
          : []),
        // The transcript's first stretch only: indexing 250 MB of trigrams would make seeding take minutes.
        ...(failed
          ? []
          : [
              {
                session_id: id,
                kind: "transcript",
                at_ms: 1_000,
                text: `${topic}: ${line.repeat(4)} session ${i}`,
                created_at: iso(startedAt),
              },
            ]),
      ],
    };
  }
}

/** Seeds a SQLite file in one transaction with prepared statements. */
export function seedHistory(file: string, count: number, now = Date.now()): SeedResult {
  const started = performance.now();
  const db = new Database(file, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  // A bench database: nothing to lose on a crash, and the search index's pages stay in memory.
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  const insertSession = db.prepare(`INSERT INTO study_sessions
    (id, topic, energy, agent, transport, status, started_at, ended_at, end_reason, exit_code, heartbeat_at, owner_host,
     owner_pid, attached_once, focus_plan, focus_minutes, break_minutes, paused_ms, win_count, struggle_count, summary,
     transcript, transcript_at)
    VALUES (?, ?, ?, 'bench', 'pty', 'ended', ?, ?, ?, ?, ?, 'bench-host', 1, 1, 'energy', 25, 5, ?, ?, ?, ?, ?, ?)`);
  const insertMark = db.prepare(
    "INSERT INTO topic_marks (id, session_id, topic, status, note, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertParked = db.prepare(
    "INSERT INTO parked_items (id, session_id, text, source, status, created_at) VALUES (?, ?, ?, 'learner', ?, ?)",
  );
  const insertDoc = db.prepare("INSERT INTO search_docs (session_id, kind, at_ms, text, created_at) VALUES (?, ?, ?, ?, ?)");
  let marks = 0;
  let parked = 0;
  let recentId = "";
  let i = 0;
  db.transaction(() => {
    for (const { session: s, marks: m, parked: p, docs } of historyRows(count, now)) {
      const t = (v: string | number | null | undefined) => (v == null ? null : iso(Number(v)));
      insertSession.run(
        s.id,
        s.topic,
        s.energy,
        t(s.started_at),
        t(s.ended_at),
        s.end_reason,
        s.exit_code,
        t(s.heartbeat_at),
        s.paused_ms,
        s.win_count,
        s.struggle_count,
        s.summary,
        s.transcript,
        t(s.transcript_at),
      );
      for (const r of m) insertMark.run(r.id, r.session_id, r.topic, r.status, r.note, r.source, r.created_at);
      for (const r of p) insertParked.run(r.id, r.session_id, r.text, r.status, r.created_at);
      for (const r of docs) insertDoc.run(r.session_id, r.kind, r.at_ms, r.text, r.created_at);
      marks += m.length;
      parked += p.length;
      if (i++ === count - 2) recentId = String(s.id);
    }
  })();
  db.close();
  return { sessions: count, marks, parked, seconds: (performance.now() - started) / 1000, recentId };
}

export interface RouteFigure {
  readonly sessions: number;
  readonly route: string;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly failures: number;
}

/** The routes measured: every page and API whose answer depends on the history. */
export function historyRoutes(recentId: string): string[] {
  return [
    "/",
    "/?topic=graphs",
    "/?q=recursion",
    "/api/stats",
    "/api/sessions",
    "/api/sessions?q=zqxjvk",
    "/api/sessions?q=recursion",
    "/api/sessions?topic=graphs",
    "/api/sessions?topic=graphs&q=recursion",
    "/api/session/state",
    "/api/session/suggestions",
    "/search?q=zqxjvk",
    "/search?q=example",
    "/api/search?q=example",
    `/sessions/${recentId}`,
    `/api/sessions/${recentId}`,
    `/api/sessions/${recentId}/markdown`,
    `/api/cards/struggles?session=${recentId}`,
    "/topics/closures",
    "/review",
    "/api/cards",
    "/api/cards/export",
    "/study",
    "/parking",
    "/api/parking",
    "/api/parking?status=pending",
    "/devices",
    "/api/devices",
    "/api/agents",
  ];
}

async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { redirect: "manual" });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  return res.status >= 200 && res.status < 400 ? ms : -1;
}

async function measureSize(count: number, log: (line: string) => void): Promise<RouteFigure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-history-"));
  try {
    const dataDir = path.join(dir, "data");
    fs.mkdirSync(dataDir);
    let seeded: SeedResult;
    const database: string[] = [];
    if (BENCH_DATABASE) {
      const url = await benchPostgresDatabase(BENCH_DATABASE);
      seeded = await seedPostgresHistory(url, historyRows(count), count);
      database.push("--database", url);
    } else {
      const file = path.join(dataDir, "studyloop.db");
      applyMigrations(file);
      seeded = seedHistory(file, count);
    }
    log(
      `history (${HISTORY_DATABASE}): seeded ${count} sessions, ${seeded.marks} marks, ${seeded.parked} parked thoughts in ${seeded.seconds.toFixed(1)} s`,
    );
    const server = await startStudyLoopWeb(ROOT, dataDir, { extraArgs: database });
    const base = server.url.replace(/\/$/, "");
    const figures: RouteFigure[] = [];
    try {
      for (const route of historyRoutes(seeded.recentId)) {
        for (let i = 0; i < WARMUP; i++) await timeGet(`${base}${route}`);
        const samples: number[] = [];
        let failures = 0;
        for (let i = 0; i < REQUESTS; i++) {
          const ms = await timeGet(`${base}${route}`);
          if (ms < 0) failures++;
          else samples.push(ms);
        }
        const figure = { sessions: count, route, medianMs: percentile(samples, 50), p95Ms: percentile(samples, 95), failures };
        figures.push(figure);
        log(
          `history ${count}: ${route} median ${figure.medianMs.toFixed(1)} ms, p95 ${figure.p95Ms.toFixed(1)} ms${failures ? `, ${failures} failed` : ""}`,
        );
      }
    } finally {
      await server.stop();
    }
    return figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs every size in turn (one server at a time, so they do not share the machine). */
export async function benchHistory(log: (line: string) => void): Promise<RouteFigure[]> {
  const all: RouteFigure[] = [];
  try {
    for (const count of HISTORY_SIZES) all.push(...(await measureSize(count, log)));
  } finally {
    await stopBenchPostgres();
  }
  return all;
}

/** A route as the table names it: the seeded session's id as [id]. */
const routeLabel = (route: string) => route.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "[id]");

/** A Markdown table: one row per route, median / p95 per size, and whether the largest meets the goal. */
export function renderHistoryTable(figures: readonly RouteFigure[]): string {
  const sizes = [...new Set(figures.map((f) => f.sessions))].sort((a, b) => a - b);
  const routes = [...new Set(figures.map((f) => routeLabel(f.route)))];
  const largest = sizes[sizes.length - 1];
  const header = [
    `route on ${HISTORY_DATABASE} (median / p95 ms)`,
    ...sizes.map((s) => `${s.toLocaleString("en-GB")} sessions`),
    `goal: p95 <= ${HISTORY_GOAL_MS} ms`,
  ];
  const body = routes.map((route) => {
    const cells = sizes.map((s) => {
      const f = figures.find((x) => x.sessions === s && routeLabel(x.route) === route);
      return f ? `${f.medianMs.toFixed(1)} / ${f.p95Ms.toFixed(1)}${f.failures ? ` (${f.failures} failed)` : ""}` : "n/a";
    });
    const last = figures.find((x) => x.sessions === largest && routeLabel(x.route) === route);
    const met = last ? last.p95Ms <= HISTORY_GOAL_MS && last.failures === 0 : null;
    return [route, ...cells, met === null ? "" : met ? "✓" : "✗"];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [row(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(row)].join("\n");
}
