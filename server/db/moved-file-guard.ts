// A database file moved or deleted while StudyLoop has it open is refused for writes, as SQLite's
// rollback journal refused them (SQLITE_READONLY_DBMOVED). With the write-ahead log (migrate.ts,
// setWriteAheadLog) SQLite itself would write on into the open file, so changes made after a deletion
// would be lost at the next start without a word. Reads go on from the open file.
import fs from "node:fs";
import type Database from "better-sqlite3";

/** Statements that change rows; BEGIN, COMMIT and ROLLBACK pass, so a refused write still rolls back. */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

export function isWriteStatement(sql: string): boolean {
  return WRITE.test(sql);
}

interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** Whether the file at `path` is still the one opened (`opened`); a missing file is not. */
export function sameFile(opened: FileIdentity, now: FileIdentity | undefined): boolean {
  return now !== undefined && now.dev === opened.dev && now.ino === opened.ino;
}

/** The error SQLite gives for the same fault, so every layer above reads it as it reads SQLite's. */
export class DatabaseMovedError extends Error {
  readonly code = "SQLITE_READONLY_DBMOVED";
  constructor(file: string) {
    super(`The database file ${file} was moved or deleted while open.`);
    this.name = "SqliteError";
  }
}

/** Makes `connection` refuse writes once `file` is no longer the file it opened. */
export function guardMovedFile(connection: Database.Database, file: string): void {
  const opened = fs.statSync(file);
  const prepare = connection.prepare.bind(connection) as (sql: string) => Database.Statement;
  connection.prepare = ((sql: string) => {
    if (isWriteStatement(sql) && !sameFile(opened, fs.statSync(file, { throwIfNoEntry: false }))) throw new DatabaseMovedError(file);
    return prepare(sql);
  }) as Database.Database["prepare"];
}
