// Start-up migration runner for PostgreSQL: prisma/postgresql/migrations, applied with `pg` and
// recorded in `_prisma_migrations` as Prisma's schema engine does for PostgreSQL, with the same
// refusals as SQLite's (migrate.ts). Several StudyLoops may start at once on one database: they take
// turns under Prisma's advisory lock, and each migration runs in its own transaction.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PG_MIGRATIONS_DIR } from "../config/paths.ts";
import { MigrationError, plan, readMigrations, type LocalMigration, type MigrationRow } from "./migrate.ts";

/** Prisma's own DDL for PostgreSQL (prisma-engines, sql-schema-connector flavour/postgres.rs). */
export const PG_PRISMA_MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

/**
 * The advisory lock key Prisma's schema engine takes on PostgreSQL (72707369): the Prisma CLI and
 * every StudyLoop starting on this database wait for one another.
 */
export const MIGRATION_LOCK_KEY = 72707369;

type Queryable = Pick<pg.Client, "query">;

async function readRecords(client: Queryable): Promise<MigrationRow[]> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
  if (!exists.rows[0]?.t) return [];
  const result = await client.query<MigrationRow>(
    `SELECT id, checksum, finished_at, migration_name, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at ASC`,
  );
  return result.rows;
}

/**
 * How long opening a PostgreSQL connection may take. `pg` waits forever by default: a database host
 * that went away would hang start-up or every request instead of failing it ("unreachable").
 */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: "studyloop migrate",
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
  });
  // A connection the server drops emits 'error' as well as failing the query: unhandled, it would end the process.
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/** Names of migrations not yet applied to the database at url. */
export async function pendingPostgresMigrations(url: string, migrationsDir: string = PG_MIGRATIONS_DIR): Promise<string[]> {
  const local = readMigrations(migrationsDir);
  const client = await connect(url);
  try {
    return plan(await readRecords(client), local).pending.map((m) => m.name);
  } finally {
    await client.end();
  }
}

/** One migration in one transaction: all of it and its record, or nothing. */
async function applyOne(client: Queryable, m: LocalMigration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(PG_PRISMA_MIGRATIONS_TABLE_SQL);
    try {
      // No parameters: the simple query protocol, which runs a file of several statements.
      await client.query(m.sql);
    } catch (err) {
      throw new MigrationError(
        "apply-failed",
        `Migration ${m.name} failed and was rolled back: ${(err as Error).message}`,
        "StudyLoop could not update its database and left it exactly as it was; please report this problem to the StudyLoop maintainers.",
        { cause: err },
      );
    }
    // One row, as Prisma leaves it after a successful apply (logs NULL, one step); started_at is
    // the transaction's now(), finished_at the clock at the end.
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
      [randomUUID(), m.checksum, m.name],
    );
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
}

/** Brings the database at url up to date with migrationsDir, one transaction per migration. */
export async function applyPostgresMigrations(
  url: string,
  migrationsDir: string = PG_MIGRATIONS_DIR,
): Promise<{ applied: string[]; alreadyApplied: string[] }> {
  const local = readMigrations(migrationsDir);
  const client = await connect(url);
  try {
    // A session lock, taken before any transaction begins, as Prisma takes it: a transaction that
    // began before another host's commit could miss the tables it created (PostgreSQL's catalog
    // cache is refreshed when a transaction starts, not when an advisory lock is granted). A
    // connection that dies releases it.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      // Refusals (unknown, failed, changed migrations) before anything is written; whatever another
      // StudyLoop applied while we waited for the lock is already applied here.
      const { pending, alreadyApplied } = plan(await readRecords(client), local);
      for (const m of pending) await applyOne(client, m);
      return { applied: pending.map((m) => m.name), alreadyApplied };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
