// What an open database is, on either engine: storage.ts opens SQLite's, storage-postgres.ts PostgreSQL's.
import type pg from "pg";
import type { Db, ReadConnection } from "./client.ts";
import type { DatabaseTarget, Provider } from "./database-target.ts";

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
