// One Prisma client per process, on the SQLite file in the data directory, and beside it one plain
// read connection for the hottest reads (session-store.ts): prepared once, no query layer.
import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client.ts";
import { guardMovedFile } from "./moved-file-guard.ts";

export type Db = PrismaClient;
export type ReadConnection = Database.Database;

/**
 * How long one statement waits for a busy writer, in ms (both connections). better-sqlite3 waits
 * synchronously, blocking the event loop, so it stays short; longer locks are ridden out by
 * withDb's retries (db-faults.ts), which pause between attempts and let other requests run.
 */
export const BUSY_TIMEOUT_MS = 1_000;

/** Prisma's better-sqlite3 adapter, whose connection refuses writes to a moved or deleted file. */
class GuardedBetterSqlite3 extends PrismaBetterSqlite3 {
  constructor(private readonly file: string) {
    // Several readers and one writer at a time; a busy writer is waited for, not failed.
    super({ url: file, timeout: BUSY_TIMEOUT_MS });
  }

  override async connect() {
    const adapter = await super.connect();
    // The adapter prepares every statement on its `client` (@prisma/adapter-better-sqlite3).
    guardMovedFile((adapter as unknown as { client: Database.Database }).client, this.file);
    return adapter;
  }
}

export function openDatabase(file: string): Db {
  return new PrismaClient({ adapter: new GuardedBetterSqlite3(file) });
}

/**
 * A second connection on the same file that can only read (query_only). It sees what is committed,
 * by this process's Prisma client or any other process, and never a transaction still open on the
 * Prisma connection.
 */
export function openReadConnection(file: string): ReadConnection {
  const connection = new Database(file, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  connection.pragma("query_only = ON");
  return connection;
}
