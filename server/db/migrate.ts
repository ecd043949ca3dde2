// Start-up migration runner. Prisma 7 cannot apply migrations offline (its schema engine is a native
// download), so StudyLoop applies prisma/migrations itself and records them in `_prisma_migrations`
// exactly as Prisma's schema engine does for SQLite, so that `prisma migrate status|deploy` agree.
import Database from "better-sqlite3";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR, securePrivateFile } from "../config/paths.ts";

/**
 * Prisma's own DDL for SQLite, byte for byte (prisma-engines, sql-schema-connector
 * flavour/sqlite.rs `create_migrations_table`); SQLite keeps this text in sqlite_master.
 */
export const PRISMA_MIGRATIONS_TABLE_SQL = `CREATE TABLE "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
);`;

export type MigrationErrorCode =
  | "unknown-migration" // (a) the database is newer than this StudyLoop
  | "checksum-mismatch" // (b) an applied migration's file was edited afterwards
  | "failed-migration" // (c) an earlier run (e.g. the Prisma CLI) left a migration half-applied
  | "apply-failed" // a pending migration failed; its transaction was rolled back
  | "broken-install"; // a migration folder without migration.sql

/** Refusal to start. Thrown before anything is written, or after a full rollback. */
export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    /** One sentence for the learner: what happened and what to do next. */
    readonly learnerMessage: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "MigrationError";
  }
}

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: number | string | Date | null;
  migration_name: string;
  rolled_back_at: number | string | Date | null;
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/**
 * Prisma's layout: `<timestamp>_<name>/migration.sql`, applied in name order. SQLite's are here,
 * PostgreSQL's (same layout, its own SQL) in migrate-postgres.ts.
 */
export function readMigrations(dir: string = MIGRATIONS_DIR): LocalMigration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const file = path.join(dir, name, "migration.sql");
      if (!fs.existsSync(file)) {
        throw new MigrationError(
          "broken-install",
          `Migration folder ${name} has no migration.sql (${file}).`,
          "StudyLoop's installation is incomplete (a database update file is missing); reinstall StudyLoop and start it again.",
        );
      }
      const bytes = fs.readFileSync(file);
      return { name, sql: bytes.toString("utf8"), checksum: sha256(bytes) };
    });
}

/**
 * Same rule as Prisma's `script_matches_checksum` (schema-connector/src/checksum.rs): line-ending
 * agnostic (git may rewrite LF/CRLF), and tolerant of old checksums written without zero padding.
 */
export function checksumMatches(sql: string, recorded: string): boolean {
  return [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")].some((variant) => {
    const digest = createHash("sha256").update(variant).digest();
    const rendered = recorded.length !== 64 && recorded !== "" ? [...digest].map((b) => b.toString(16)).join("") : digest.toString("hex");
    return rendered === recorded;
  });
}

function hasTable(db: Database.Database, name: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}

function readRecords(db: Database.Database): MigrationRow[] {
  if (!hasTable(db, "_prisma_migrations")) return [];
  return db
    .prepare(
      `SELECT id, checksum, finished_at, migration_name, rolled_back_at
       FROM "_prisma_migrations" ORDER BY started_at ASC`,
    )
    .all() as MigrationRow[];
}

/** Validates the recorded history against the local migrations; throws MigrationError on refusal. */
export function plan(records: MigrationRow[], local: LocalMigration[]): { pending: LocalMigration[]; alreadyApplied: string[] } {
  // Rolled-back rows do not count, as in Prisma's apply_migrations.
  const active = records.filter((r) => r.rolled_back_at === null);
  const byName = new Map(local.map((m) => [m.name, m]));

  const unknown = active.filter((r) => !byName.has(r.migration_name)).map((r) => r.migration_name);
  if (unknown.length > 0) {
    throw new MigrationError(
      "unknown-migration",
      `The database records migration(s) this version does not have: ${unknown.join(", ")}. ` +
        `A newer StudyLoop has updated this data directory.`,
      "Your StudyLoop data was last opened by a newer version of StudyLoop, so this older version will not touch it; update StudyLoop and start it again.",
    );
  }

  const failed = active.filter((r) => r.finished_at === null).map((r) => r.migration_name);
  if (failed.length > 0) {
    throw new MigrationError(
      "failed-migration",
      `Migration(s) ${failed.join(", ")} started but never finished (finished_at and rolled_back_at ` +
        `are NULL in _prisma_migrations), so the schema may be half-applied. Inspect the database, ` +
        `then run \`prisma migrate resolve --rolled-back <name>\` (after undoing its partial changes) ` +
        `or \`--applied <name>\` (if it did complete), or restore a backup.`,
      "A database update from an earlier start did not finish, so StudyLoop stopped to protect your data; restore your data folder from a backup, or ask for help before starting StudyLoop again.",
    );
  }

  const changed = active.filter((r) => !checksumMatches(byName.get(r.migration_name)!.sql, r.checksum)).map((r) => r.migration_name);
  if (changed.length > 0) {
    throw new MigrationError(
      "checksum-mismatch",
      `Migration file(s) changed after they were applied to this database: ${changed.join(", ")} ` +
        `(sha256 of migration.sql differs from _prisma_migrations.checksum). Applied migrations must ` +
        `never be edited; restore the original file and add a new migration instead.`,
      "StudyLoop's database update files do not match the ones used to build your database, so StudyLoop stopped to protect your data; reinstall this version of StudyLoop and start it again.",
    );
  }

  const applied = new Set(active.map((r) => r.migration_name));
  return {
    pending: local.filter((m) => !applied.has(m.name)),
    alreadyApplied: local.filter((m) => applied.has(m.name)).map((m) => m.name),
  };
}

/** Names of migrations not yet applied to dbFile (all of them if the file does not exist). */
export function pendingMigrations(dbFile: string, migrationsDir: string = MIGRATIONS_DIR): string[] {
  const local = readMigrations(migrationsDir);
  if (!fs.existsSync(dbFile)) return local.map((m) => m.name);
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return plan(readRecords(db), local).pending.map((m) => m.name);
  } finally {
    db.close();
  }
}

/**
 * The journal every StudyLoop process writes through (kept in the file, so set once here): a
 * write-ahead log, with commits that do not wait for the disk. With the default rollback journal every
 * commit waited for two or three fsyncs (16 ms median, 36-64 ms p99 on this machine, measured), and
 * better-sqlite3 waits on the event loop: each heartbeat, timer tick or index write stalled every
 * terminal and page the server serves. A commit now survives the server being killed at any moment;
 * only a power cut or an operating-system crash can lose the last commits (never the file's
 * integrity). Readers and the one writer no longer block each other.
 */
export function setWriteAheadLog(db: Database.Database): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
}

/** Brings dbFile (created if missing) up to date with migrationsDir, one transaction per migration. */
export function applyMigrations(dbFile: string, migrationsDir: string = MIGRATIONS_DIR): { applied: string[]; alreadyApplied: string[] } {
  const local = readMigrations(migrationsDir);
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  securePrivateFile(dbFile);
  const db = new Database(dbFile);
  try {
    setWriteAheadLog(db);
    // better-sqlite3 enables foreign keys by default, and PRAGMA foreign_keys is a no-op inside a
    // transaction: with them on, the DROP TABLE in Prisma's table-redefinition migrations would
    // fire ON DELETE CASCADE and wipe child rows. Integrity is checked before each commit instead.
    db.pragma("foreign_keys = OFF");
    const { pending, alreadyApplied } = plan(readRecords(db), local);
    const applied: string[] = [];

    for (const m of pending) {
      const applyOne = db.transaction((): boolean => {
        // Another StudyLoop starting at the same moment may have applied it (IMMEDIATE serialises us).
        if (readRecords(db).some((r) => r.migration_name === m.name && r.rolled_back_at === null)) {
          return false;
        }
        if (!hasTable(db, "_prisma_migrations")) db.exec(PRISMA_MIGRATIONS_TABLE_SQL);

        // Prisma stores DateTime in SQLite as INTEGER unix milliseconds (quaint's rusqlite ToSql).
        const startedAt = Date.now();
        const failed = (detail: string, cause?: unknown) =>
          new MigrationError(
            "apply-failed",
            `Migration ${m.name} failed and was rolled back: ${detail}`,
            "StudyLoop could not update its database and left it exactly as it was; please report this problem to the StudyLoop maintainers.",
            { cause },
          );
        let violations: unknown[];
        try {
          db.exec(m.sql);
          violations = db.pragma("foreign_key_check") as unknown[];
        } catch (err) {
          throw failed((err as Error).message, err);
        }
        if (violations.length > 0) {
          throw failed(`it leaves ${violations.length} foreign key violation(s), e.g. ${JSON.stringify(violations[0])}`);
        }
        // One row per migration, as Prisma leaves it after record_migration_started,
        // record_successful_step and record_migration_finished (logs NULL, one step).
        db.prepare(
          `INSERT INTO "_prisma_migrations"
             (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
           VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
        ).run(randomUUID(), m.checksum, Date.now(), m.name, startedAt);
        return true;
      });
      if (applyOne.immediate()) applied.push(m.name);
      else alreadyApplied.push(m.name);
    }
    return { applied, alreadyApplied };
  } finally {
    db.close();
  }
}
