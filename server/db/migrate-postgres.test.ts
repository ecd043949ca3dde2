// The PostgreSQL migration runner against a real PostgreSQL started by the test (test-postgres.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { PG_MIGRATIONS_DIR } from "../config/paths.ts";
import { MigrationError } from "./migrate.ts";
import { applyPostgresMigrations, pendingPostgresMigrations } from "./migrate-postgres.ts";
import { postgresAvailable, testPostgresUrl } from "./test-postgres.ts";

const INIT = "20261203000000_init";
const initSql = () => fs.readFileSync(path.join(PG_MIGRATIONS_DIR, INIT, "migration.sql"));

let tmp: string;
let url: string;
let migrationsDir: string;
const clients: pg.Client[] = [];

async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  clients.push(client);
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

function addMigration(name: string, text: string | Buffer) {
  fs.mkdirSync(path.join(migrationsDir, name), { recursive: true });
  fs.writeFileSync(path.join(migrationsDir, name, "migration.sql"), text);
}

/** Every table and the migration history: what a refused or failed run must leave as it was. */
async function snapshot() {
  return {
    tables: (await sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")).map(
      (r) => r.table_name,
    ),
    history: (await sql("SELECT to_regclass('_prisma_migrations')::text AS t"))[0]!.t
      ? await sql("SELECT id, checksum, finished_at, migration_name, rolled_back_at FROM _prisma_migrations ORDER BY migration_name")
      : null,
  };
}

async function refusal(code: MigrationError["code"]): Promise<MigrationError> {
  const error = await applyPostgresMigrations(url, migrationsDir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MigrationError);
  expect((error as MigrationError).code).toBe(code);
  return error as MigrationError;
}

describe.runIf(postgresAvailable())("PostgreSQL migrations (real PostgreSQL)", () => {
  beforeEach(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-pgmigrate-"));
    migrationsDir = path.join(tmp, "migrations");
    addMigration(INIT, initSql());
    url = await testPostgresUrl();
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  });

  it("applies the init migration once and records it as Prisma does", async () => {
    expect(await pendingPostgresMigrations(url, migrationsDir)).toEqual([INIT]);
    expect(await applyPostgresMigrations(url, migrationsDir)).toEqual({ applied: [INIT], alreadyApplied: [] });
    expect(await applyPostgresMigrations(url, migrationsDir)).toEqual({ applied: [], alreadyApplied: [INIT] });
    expect(await pendingPostgresMigrations(url, migrationsDir)).toEqual([]);

    const [row] = await sql("SELECT * FROM _prisma_migrations");
    expect(row).toMatchObject({
      migration_name: INIT,
      checksum: createHash("sha256").update(initSql()).digest("hex"),
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect(row!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((row!.finished_at as Date).getTime()).toBeGreaterThanOrEqual((row!.started_at as Date).getTime());
    // The table is Prisma's for PostgreSQL, column for column.
    const columns = await sql(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
       FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(
      columns.map(
        (c) =>
          `${c.column_name} ${c.data_type}${c.character_maximum_length ? `(${c.character_maximum_length})` : ""} ${c.is_nullable === "NO" ? "NOT NULL" : "NULL"}${c.column_default ? ` DEFAULT ${c.column_default}` : ""}`,
      ),
    ).toEqual([
      "id character varying(36) NOT NULL",
      "checksum character varying(64) NOT NULL",
      "finished_at timestamp with time zone NULL",
      "migration_name character varying(255) NOT NULL",
      "logs text NULL",
      "rolled_back_at timestamp with time zone NULL",
      "started_at timestamp with time zone NOT NULL DEFAULT now()",
      "applied_steps_count integer NOT NULL DEFAULT 0",
    ]);
  });

  it("applies a migration once when several StudyLoops start at the same moment", async () => {
    addMigration("20261203000001_slow", `SELECT pg_sleep(0.3); CREATE TABLE "slow" ("id" INTEGER NOT NULL);`);
    const results = await Promise.all([1, 2, 3].map(() => applyPostgresMigrations(url, migrationsDir)));
    const appliedBy = (name: string) => results.filter((r) => r.applied.includes(name)).length;
    expect(appliedBy(INIT)).toBe(1);
    expect(appliedBy("20261203000001_slow")).toBe(1);
    for (const r of results) expect([...r.applied, ...r.alreadyApplied].sort()).toEqual([INIT, "20261203000001_slow"]);
    expect(await sql("SELECT migration_name FROM _prisma_migrations ORDER BY migration_name")).toEqual([
      { migration_name: INIT },
      { migration_name: "20261203000001_slow" },
    ]);
  });

  it("rolls a failing migration back completely and records nothing of it", async () => {
    await applyPostgresMigrations(url, migrationsDir);
    const before = await snapshot();
    addMigration("20261203000002_broken", `CREATE TABLE "half" ("id" INTEGER NOT NULL); INSERT INTO "nowhere" VALUES (1);`);
    const error = await refusal("apply-failed");
    expect(error.message).toMatch(/20261203000002_broken failed and was rolled back: relation "nowhere" does not exist/);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a database a newer StudyLoop migrated", async () => {
    addMigration("20261203000003_newer", `CREATE TABLE "newer" ("id" INTEGER NOT NULL);`);
    await applyPostgresMigrations(url, migrationsDir);
    fs.rmSync(path.join(migrationsDir, "20261203000003_newer"), { recursive: true });
    const before = await snapshot();
    expect((await refusal("unknown-migration")).learnerMessage).toMatch(/newer version of StudyLoop/);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an applied migration whose file changed", async () => {
    await applyPostgresMigrations(url, migrationsDir);
    addMigration(INIT, Buffer.concat([initSql(), Buffer.from("\n-- edited\n")]));
    await refusal("checksum-mismatch");
  });

  it("accepts the same file with CRLF line endings (git may rewrite them)", async () => {
    await applyPostgresMigrations(url, migrationsDir);
    addMigration(INIT, initSql().toString("utf8").replaceAll("\n", "\r\n"));
    expect(await applyPostgresMigrations(url, migrationsDir)).toEqual({ applied: [], alreadyApplied: [INIT] });
  });

  it("refuses a migration an earlier run left unfinished", async () => {
    await applyPostgresMigrations(url, migrationsDir);
    addMigration("20261203000004_next", `CREATE TABLE "next" ("id" INTEGER NOT NULL);`);
    // What the Prisma CLI leaves after a failed step: started, never finished, not rolled back.
    await sql(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, applied_steps_count)
       VALUES ('00000000-0000-0000-0000-000000000001', 'x', '20261203000004_next', 'failed', 0)`,
    );
    const before = await snapshot();
    expect((await refusal("failed-migration")).message).toMatch(/20261203000004_next started but never finished/);
    expect(await snapshot()).toEqual(before);
  });

  it("runs past a rolled-back record, as Prisma does", async () => {
    await applyPostgresMigrations(url, migrationsDir);
    addMigration("20261203000005_retry", `CREATE TABLE "retry" ("id" INTEGER NOT NULL);`);
    await sql(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, rolled_back_at, applied_steps_count)
       VALUES ('00000000-0000-0000-0000-000000000002', 'x', '20261203000005_retry', now(), 0)`,
    );
    expect(await applyPostgresMigrations(url, migrationsDir)).toEqual({ applied: ["20261203000005_retry"], alreadyApplied: [INIT] });
  });
});
