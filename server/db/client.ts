// One Prisma client per process, on the SQLite file in the data directory.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;

export function openDatabase(file: string): Db {
  // Several readers and one writer at a time; a busy writer is waited for, not failed.
  const adapter = new PrismaBetterSqlite3({ url: file, timeout: 5_000 });
  return new PrismaClient({ adapter });
}
