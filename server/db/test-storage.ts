// Test-only: the providers a store test runs on, and a migrated, opened Storage on each (a SQLite
// file in a temp folder; a new database on the test process's own PostgreSQL, test-postgres.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Provider } from "./database-target.ts";
import { openStorage, type Storage } from "./storage.ts";
import { postgresAvailable, testPostgresUrl } from "./test-postgres.ts";

/** Both, or SQLite alone with a loud warning where initdb is missing (an error under CI). */
export function testProviders(): Provider[] {
  return postgresAvailable() ? ["sqlite", "postgresql"] : ["sqlite"];
}

export interface TestStorage extends Storage {
  /** Closes the storage and removes its temp folder (SQLite). */
  dispose(): Promise<void>;
}

export async function openTestStorage(provider: Provider): Promise<TestStorage> {
  if (provider === "postgresql") {
    const storage = await openStorage({ provider, url: await testPostgresUrl() });
    return Object.assign(storage, { dispose: () => storage.close() });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-store-"));
  const storage = await openStorage({ provider, file: path.join(dir, "studyloop.db") });
  return Object.assign(storage, {
    dispose: async () => {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}
