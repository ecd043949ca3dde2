// The database a StudyLoop process works on, whichever it is: migrated, then opened. SQLite (one
// file, the default) gets Prisma on better-sqlite3 plus the plain read connection for hot reads;
// PostgreSQL (several machines) gets Prisma on a `pg` pool (storage-postgres.ts, loaded only then:
// the SQLite default never pays for pg, its adapter or the second Prisma client).
import { openDatabase, openReadConnection } from "./client.ts";
import type { Storage, StorageOptions } from "./storage-types.ts";
import type { DatabaseTarget } from "./database-target.ts";
import { applyMigrations } from "./migrate.ts";

export type { Storage, StorageOptions } from "./storage-types.ts";

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
