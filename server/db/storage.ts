// The database a StudyLoop process works on, whichever it is: migrated, then opened. SQLite (one
// file, the default) gets Prisma on better-sqlite3 plus the plain read connection for hot reads;
// PostgreSQL (several machines) gets Prisma on a `pg` pool (storage-postgres.ts, loaded only then:
// the SQLite default never pays for pg, its adapter or the second Prisma client).
import type pg from "pg";
import { openDatabase, openReadConnection, type Db, type ReadConnection } from "./client.ts";
import type { DatabaseTarget, Provider } from "./database-target.ts";
import { applyMigrations } from "./migrate.ts";

export interface Storage {
  readonly target: DatabaseTarget;
  readonly provider: Provider;
  /** Prisma, typed as the SQLite client: the PostgreSQL one has the same models and API. */
  readonly db: Db;
  /** SQLite only: the read-only better-sqlite3 connection for hot reads; null on PostgreSQL. */
  readonly sqliteReads: ReadConnection | null;
  /** PostgreSQL only: the pool Prisma runs on, for raw SQL that needs `pg` itself; null on SQLite. */
  readonly pgPool: pg.Pool | null;
  /** Migrations this open applied (empty when the database was up to date). */
  readonly applied: readonly string[];
  close(): Promise<void>;
}

export interface StorageOptions {
  /** Where a dropped idle PostgreSQL connection is reported (the pool replaces it). */
  readonly log?: (line: string) => void;
}

/** Applies pending migrations (MigrationError refuses), then opens the database. */
export async function openStorage(target: DatabaseTarget, options: StorageOptions = {}): Promise<Storage> {
  if (target.provider === "sqlite") {
    const { applied } = applyMigrations(target.file);
    const db = openDatabase(target.file);
    // Per connection (the journal itself is set by applyMigrations): see setWriteAheadLog.
    await db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    const reads = openReadConnection(target.file);
    return {
      target,
      provider: "sqlite",
      db,
      sqliteReads: reads,
      pgPool: null,
      applied,
      async close() {
        await db.$disconnect();
        reads.close();
      },
    };
  }

  const { openPostgresStorage } = await import("./storage-postgres.ts");
  return openPostgresStorage(target, options);
}
