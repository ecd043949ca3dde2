// storage.ts's PostgreSQL half: Prisma on a `pg` pool, after the PostgreSQL migrations. Imported
// lazily by openStorage so that the SQLite default never loads pg or the PostgreSQL client.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Db } from "./client.ts";
import type { DatabaseTarget } from "./database-target.ts";
import { PrismaClient as PgPrismaClient } from "./generated-pg/client.ts";
import { applyPostgresMigrations, PG_CONNECT_TIMEOUT_MS } from "./migrate-postgres.ts";
import type { Storage, StorageOptions } from "./storage-types.ts";

export async function openPostgresStorage(
  target: Extract<DatabaseTarget, { provider: "postgresql" }>,
  options: StorageOptions,
): Promise<Storage> {
  const { applied } = await applyPostgresMigrations(target.url);
  const pool = new pg.Pool({
    connectionString: target.url,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: "studyloop",
    // No JIT compiling: StudyLoop's queries are short, and a plan estimated above jit_above_cost
    // (a search over many documents) spent 50-80 ms compiling before it ran for 30.
    options: "-c jit=off",
  });
  // An idle connection the server dropped emits 'error' on the pool; unhandled, it would end the process.
  const log = options.log ?? (() => undefined);
  pool.on("error", (error) => log(`PostgreSQL dropped an idle connection (${error.message}); a new one is opened when needed.`));
  const adapter = new PrismaPg(pool, { disposeExternalPool: false });
  const db = new PgPrismaClient({ adapter }) as unknown as Db;
  let closed = false;
  return {
    target,
    provider: "postgresql",
    db,
    sqliteReads: null,
    pgPool: pool,
    applied,
    async close() {
      if (closed) return;
      closed = true;
      await db.$disconnect();
      await pool.end();
    },
  };
}
