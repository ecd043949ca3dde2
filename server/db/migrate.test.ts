import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "../config/paths.ts";
import { applyMigrations, checksumMatches, MigrationError, pendingMigrations, PRISMA_MIGRATIONS_TABLE_SQL } from "./migrate.ts";

const INIT = "20261129000000_init";
const initSql = () => fs.readFileSync(path.join(MIGRATIONS_DIR, INIT, "migration.sql"));

let tmp: string;
let dbFile: string;
let migrationsDir: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-migrate-"));
  dbFile = path.join(tmp, "data", "studyloop.db");
  migrationsDir = path.join(tmp, "migrations");
  addMigration(INIT, initSql());
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function addMigration(name: string, sql: string | Buffer) {
  fs.mkdirSync(path.join(migrationsDir, name), { recursive: true });
  fs.writeFileSync(path.join(migrationsDir, name, "migration.sql"), sql);
}

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbFile);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Everything a migration could touch: schema objects and the migration history. */
function snapshot() {
  return withDb((db) => ({
    schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").all(),
    history: db.prepare("SELECT name FROM sqlite_master WHERE name = '_prisma_migrations'").get()
      ? db.prepare('SELECT * FROM "_prisma_migrations" ORDER BY migration_name').all()
      : null,
  }));
}

/** Runs the migrations expecting them to fail; returns the MigrationError they failed with. */
function failedMigration(code: MigrationError["code"]): MigrationError {
  let error: unknown;
  try {
    applyMigrations(dbFile, migrationsDir);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(MigrationError);
  expect((error as MigrationError).code).toBe(code);
  return error as MigrationError;
}

function expectRefusal(code: MigrationError["code"]) {
  const before = fs.readFileSync(dbFile);
  const error = failedMigration(code);
  expect(error.learnerMessage).toMatch(/^[A-Z].*[a-z]\.$/);
  // Nothing was written: the file is byte-for-byte what it was.
  expect(fs.readFileSync(dbFile).equals(before)).toBe(true);
  return error;
}

describe("applyMigrations", () => {
  it("creates the data file, the tables and a Prisma-shaped history row", () => {
    const t0 = Date.now();
    expect(applyMigrations(dbFile, migrationsDir)).toEqual({ applied: [INIT], alreadyApplied: [] });

    withDb((db) => {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((r: any) => r.name);
      expect(tables).toEqual(["_prisma_migrations", "parked_items", "study_sessions", "topic_marks"]);

      // Same DDL text as Prisma's schema engine, kept verbatim by SQLite.
      const ddl = db.prepare("SELECT sql FROM sqlite_master WHERE name = '_prisma_migrations'").get() as any;
      expect(ddl.sql + ";").toBe(PRISMA_MIGRATIONS_TABLE_SQL);

      const rows = db.prepare('SELECT * FROM "_prisma_migrations"').all() as any[];
      expect(rows).toHaveLength(1);
      const row = rows[0];
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.checksum).toBe(createHash("sha256").update(initSql()).digest("hex"));
      expect(row.migration_name).toBe(INIT);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      // Prisma's storage format: INTEGER unix milliseconds.
      const types = db.prepare('SELECT typeof(started_at) AS s, typeof(finished_at) AS f FROM "_prisma_migrations"').get();
      expect(types).toEqual({ s: "integer", f: "integer" });
      expect(row.started_at).toBeGreaterThanOrEqual(t0);
      expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at);
      expect(row.finished_at).toBeLessThanOrEqual(Date.now());
    });
  });

  it("applies nothing on a second run", () => {
    applyMigrations(dbFile, migrationsDir);
    const before = snapshot();
    expect(pendingMigrations(dbFile, migrationsDir)).toEqual([]);
    expect(applyMigrations(dbFile, migrationsDir)).toEqual({ applied: [], alreadyApplied: [INIT] });
    expect(snapshot()).toEqual(before);
  });

  it("applies later migrations in name order", () => {
    // The second depends on the first, the third on the second: any other order fails.
    addMigration("20261201000000_b", 'ALTER TABLE "study_sessions" ADD COLUMN "mood" TEXT;\n');
    addMigration("20261202000000_c", 'CREATE INDEX "study_sessions_mood_idx" ON "study_sessions"("mood");\n');
    expect(pendingMigrations(dbFile, migrationsDir)).toEqual([INIT, "20261201000000_b", "20261202000000_c"]);
    expect(applyMigrations(dbFile, migrationsDir).applied).toEqual([INIT, "20261201000000_b", "20261202000000_c"]);
    const names = withDb((db) => db.prepare('SELECT migration_name FROM "_prisma_migrations" ORDER BY started_at, rowid').all());
    expect(names.map((r: any) => r.migration_name)).toEqual([INIT, "20261201000000_b", "20261202000000_c"]);
  });

  it("applies a new migration to an existing database and keeps child rows through a table redefinition", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) => {
      db.prepare("INSERT INTO study_sessions (id, topic, energy, agent, transport) VALUES ('s1', 'sets', 3, 'a', 'pty')").run();
      db.prepare("INSERT INTO topic_marks (id, session_id, topic, status) VALUES ('m1', 's1', 'sets', 'win')").run();
    });
    // The shape of Prisma's SQLite "RedefineTables" migration: DROP TABLE of the parent would
    // cascade into topic_marks if foreign keys were on.
    const createSql = withDb(
      (db) => (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'study_sessions'").get() as any).sql as string,
    );
    const indexes = initSql()
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes('ON "study_sessions"'))
      .join("\n");
    addMigration(
      "20261201000000_redefine",
      `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
${createSql.replace('"study_sessions"', '"new_study_sessions"')};
INSERT INTO "new_study_sessions" SELECT * FROM "study_sessions";
DROP TABLE "study_sessions";
ALTER TABLE "new_study_sessions" RENAME TO "study_sessions";
${indexes}
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
    );
    expect(applyMigrations(dbFile, migrationsDir)).toEqual({
      applied: ["20261201000000_redefine"],
      alreadyApplied: [INIT],
    });
    withDb((db) => expect(db.prepare("SELECT id FROM topic_marks").all()).toEqual([{ id: "m1" }]));
  });

  it("refuses a database that records a migration this version does not have", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) =>
      db
        .prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ('x', 'abc', 2, '20991231000000_from_the_future', 1, 1)`,
        )
        .run(),
    );
    addMigration("20261201000000_pending", 'CREATE TABLE "t" ("id" TEXT NOT NULL PRIMARY KEY);\n');
    const before = snapshot();
    const err = expectRefusal("unknown-migration");
    expect(err.message).toContain("20991231000000_from_the_future");
    expect(err.learnerMessage).toMatch(/newer version/);
    expect(snapshot()).toEqual(before);
    expect(() => pendingMigrations(dbFile, migrationsDir)).toThrow(MigrationError);
  });

  it("ignores rolled-back history rows, as Prisma does", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) =>
      db
        .prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, rolled_back_at, started_at)
           VALUES ('y', 'abc', '20991231000000_abandoned', 3, 1)`,
        )
        .run(),
    );
    expect(applyMigrations(dbFile, migrationsDir)).toEqual({ applied: [], alreadyApplied: [INIT] });
  });

  it("refuses when an applied migration's file has changed", () => {
    applyMigrations(dbFile, migrationsDir);
    addMigration(INIT, Buffer.concat([initSql(), Buffer.from("-- edited\n")]));
    addMigration("20261201000000_pending", 'CREATE TABLE "t" ("id" TEXT NOT NULL PRIMARY KEY);\n');
    expect(expectRefusal("checksum-mismatch").message).toContain(INIT);
  });

  it("accepts the same file with other line endings, like Prisma's checksum rule", () => {
    applyMigrations(dbFile, migrationsDir);
    addMigration(INIT, initSql().toString("utf8").replaceAll("\n", "\r\n"));
    expect(applyMigrations(dbFile, migrationsDir).alreadyApplied).toEqual([INIT]);
    expect(checksumMatches("abc\n", createHash("sha256").update("abc").digest("hex"))).toBe(false);
  });

  it("refuses a migration that failed earlier (finished_at and rolled_back_at NULL)", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) => db.prepare('UPDATE "_prisma_migrations" SET finished_at = NULL, applied_steps_count = 0').run());
    const err = expectRefusal("failed-migration");
    expect(err.message).toContain("prisma migrate resolve");
  });

  it("rolls back a migration that fails halfway, leaving schema and history unchanged", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) =>
      db.prepare("INSERT INTO study_sessions (id, topic, energy, agent, transport) VALUES ('s1', 'sets', 3, 'a', 'pty')").run(),
    );
    const before = snapshot();
    const bytes = fs.readFileSync(dbFile);
    addMigration(
      "20261201000000_broken",
      `CREATE TABLE "notes" ("id" TEXT NOT NULL PRIMARY KEY);
ALTER TABLE "study_sessions" ADD COLUMN "mood" TEXT;
DELETE FROM "study_sessions";
INSERT INTO "no_such_table" VALUES (1);
CREATE TABLE "never" ("id" TEXT);
`,
    );
    expect(failedMigration("apply-failed").message).toMatch(/20261201000000_broken.*no such table/);
    expect(snapshot()).toEqual(before);
    expect(fs.readFileSync(dbFile).equals(bytes)).toBe(true);
    withDb((db) => expect(db.prepare("SELECT count(*) AS n FROM study_sessions").get()).toEqual({ n: 1 }));
  });

  it("rolls back a migration that would leave dangling foreign keys", () => {
    applyMigrations(dbFile, migrationsDir);
    withDb((db) => {
      db.prepare("INSERT INTO study_sessions (id, topic, energy, agent, transport) VALUES ('s1', 'sets', 3, 'a', 'pty')").run();
      db.prepare("INSERT INTO topic_marks (id, session_id, topic, status) VALUES ('m1', 's1', 'sets', 'win')").run();
    });
    const before = snapshot();
    addMigration("20261201000000_orphans", 'DELETE FROM "study_sessions";\n');
    expect(() => applyMigrations(dbFile, migrationsDir)).toThrow(/foreign key violation/);
    expect(snapshot()).toEqual(before);
  });

  it("leaves a fresh database empty when the first migration fails", () => {
    fs.rmSync(path.join(migrationsDir, INIT), { recursive: true });
    addMigration("20261129000000_init", 'CREATE TABLE "a" ("id" TEXT);\nTHIS IS NOT SQL;\n');
    expect(() => applyMigrations(dbFile, migrationsDir)).toThrow(MigrationError);
    withDb((db) => expect(db.prepare("SELECT name FROM sqlite_master").all()).toEqual([]));
  });
});
