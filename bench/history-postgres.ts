// The history bench on PostgreSQL (BENCH_DATABASE): the same seeded history (history.ts's
// historyRows) written into a new database per size, migrated by the app's own PostgreSQL runner, and
// served by `studyloop web --database <url>`. BENCH_DATABASE=postgresql starts a private cluster
// (initdb + pg_ctl, as the tests do); a postgresql:// URL names a server to create the databases on.
import crypto from "node:crypto";
import pg from "pg";
import { applyPostgresMigrations } from "../server/db/migrate-postgres.ts";
import { startPostgresCluster, type PostgresCluster } from "../server/db/test-postgres.ts";
import type { SeedResult, SeedSession } from "./lib/seed-types.ts";

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 500;

let cluster: Promise<PostgresCluster> | null = null;

/** A new, empty database on the bench's PostgreSQL; its URL. */
export async function benchPostgresDatabase(setting: string): Promise<string> {
  const name = `bench_history_${crypto.randomBytes(4).toString("hex")}`;
  if (!/^postgres(ql)?:\/\//i.test(setting)) {
    cluster ??= startPostgresCluster();
    return (await cluster).createDatabase(name);
  }
  const admin = new pg.Client({ connectionString: setting });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(setting);
  url.pathname = `/${name}`;
  return url.toString();
}

/** timestamp(3) without time zone holds UTC (as Prisma writes it): ISO text without the zone. */
const utc = (v: string | number | null | undefined) =>
  v == null ? null : new Date(typeof v === "number" ? v : Date.parse(v)).toISOString().slice(0, -1);

async function insertMany(client: pg.Client, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    const params: unknown[] = [];
    const values = batch.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(", ")})`);
    await client.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${values.join(", ")}`, params);
  }
}

/** Migrates the database and writes the history in one transaction (the triggers index it), then ANALYZE. */
export async function seedPostgresHistory(url: string, rows: Iterable<SeedSession>, count: number): Promise<SeedResult> {
  const started = performance.now();
  await applyPostgresMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let marks = 0;
  let parked = 0;
  let recentId = "";
  try {
    await client.query("BEGIN");
    const sessions: unknown[][] = [];
    const markRows: unknown[][] = [];
    const parkedRows: unknown[][] = [];
    const docRows: unknown[][] = [];
    let i = 0;
    for (const { session: s, marks: m, parked: p, docs } of rows) {
      sessions.push([
        s.id,
        s.topic,
        s.energy,
        "bench",
        "pty",
        "ended",
        utc(s.started_at),
        utc(s.ended_at),
        s.end_reason,
        s.exit_code,
        utc(s.heartbeat_at),
        "bench-host",
        1,
        true,
        s.paused_ms,
        s.win_count,
        s.struggle_count,
        s.summary,
        s.transcript,
        utc(s.transcript_at),
      ]);
      for (const r of m) markRows.push([r.id, r.session_id, r.topic, r.status, r.note, r.source, utc(r.created_at)]);
      for (const r of p) parkedRows.push([r.id, r.session_id, r.text, "learner", r.status, utc(r.created_at)]);
      for (const r of docs) docRows.push([r.session_id, r.kind, r.at_ms, r.text, utc(r.created_at)]);
      marks += m.length;
      parked += p.length;
      if (i++ === count - 2) recentId = String(s.id);
    }
    // prettier-ignore
    await insertMany(client, "study_sessions", ["id", "topic", "energy", "agent", "transport", "status", "started_at", "ended_at", "end_reason",
      "exit_code", "heartbeat_at", "owner_host", "owner_pid", "attached_once", "paused_ms", "win_count", "struggle_count", "summary",
      "transcript", "transcript_at"], sessions);
    await insertMany(client, "topic_marks", ["id", "session_id", "topic", "status", "note", "source", "created_at"], markRows);
    await insertMany(client, "parked_items", ["id", "session_id", "text", "source", "status", "created_at"], parkedRows);
    await insertMany(client, "search_docs", ["session_id", "kind", "at_ms", "text", "created_at"], docRows);
    await client.query("COMMIT");
    // What autovacuum would do soon after: the planner's statistics for the new rows.
    await client.query("ANALYZE");
  } finally {
    await client.end();
  }
  return { sessions: count, marks, parked, seconds: (performance.now() - started) / 1000, recentId };
}

/** Stops the private cluster, if the bench started one. */
export async function stopBenchPostgres(): Promise<void> {
  if (cluster) (await cluster).destroy();
  cluster = null;
}
