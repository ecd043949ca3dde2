// One Prisma client per process, on the SQLite file in the data directory, and beside it one plain
// read connection for the hottest reads (session-store.ts): prepared once, no query layer.
import Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
export type ReadConnection = Database.Database;

/**
 * How long one statement waits for a busy writer, in ms (both connections). better-sqlite3 waits
 * synchronously, blocking the event loop, so it stays short; longer locks are ridden out by
 * withDb's retries (db-faults.ts), which pause between attempts and let other requests run.
 */
export const BUSY_TIMEOUT_MS = 1_000;

export function openDatabase(file: string): Db {
  // Several readers and one writer at a time; a busy writer is waited for, not failed.
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: BUSY_TIMEOUT_MS });
  return new PrismaClient({ adapter });
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
