// For tests: a SessionStore on its own freshly migrated SQLite file for each test (vitest hooks),
// removed after it. The fields are set before each test runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, openReadConnection, type Db, type ReadConnection } from "../db/client.ts";
import { SessionStore } from "./session-store.ts";

export interface StoreOnSqlite {
  db: Db;
  reads: ReadConnection;
  store: SessionStore;
}

export function storeOnSqlite(prefix: string): StoreOnSqlite {
  const current = {} as StoreOnSqlite;
  let tmp = "";
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const file = path.join(tmp, "studyloop.db");
    applyMigrations(file);
    current.db = openDatabase(file);
    current.reads = openReadConnection(file);
    current.store = new SessionStore(current.db, current.reads);
  });
  afterEach(async () => {
    await current.db.$disconnect();
    current.reads.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  return current;
}
