// The data layer as a CLI command uses it: the same migrations, database and session rules as the
// web server, opened directly in this process (no server needs to run).
import { resolveDataDir } from "../config/paths.ts";
import { loadSettings, type Settings } from "../config/settings.ts";
import { MigrationError } from "../db/migrate.ts";
import type { Db, ReadConnection } from "../db/client.ts";
import type { DatabaseTarget } from "../db/database-target.ts";
import { openStorage, type Storage } from "../db/storage.ts";
import { AgentRegistry } from "../agents/agent-registry.ts";
import { SessionService } from "../sessions/session-service.ts";
import { CardStore } from "../cards/card-store.ts";
import { ensureWritableDir } from "./web.ts";
import { UsageError } from "./options.ts";
import { databaseTargetOrRefuse, openFailureRefusal } from "./database-option.ts";

type Env = Readonly<Record<string, string | undefined>>;

export { DATABASE_OPTION } from "./database-option.ts";

/** openStorage for a command: refusals and faults become one sentence and an exit code. */
export async function openStorageOrRefuse(target: DatabaseTarget): Promise<Storage> {
  try {
    return await openStorage(target);
  } catch (error) {
    if (error instanceof MigrationError) throw new UsageError(`${error.learnerMessage}\n  (${error.message})`);
    throw openFailureRefusal(error, target);
  }
}

export interface LocalData {
  readonly dataDir: string;
  readonly target: DatabaseTarget;
  readonly storage: Storage;
  readonly db: Db;
  /** SQLite's read-only connection; null on PostgreSQL. */
  readonly reads: ReadConnection | null;
  readonly settings: Settings;
  readonly agents: AgentRegistry;
  readonly sessions: SessionService;
  readonly cards: CardStore;
  close(): Promise<void>;
}

export async function openLocalData(dataDirFlag: string | undefined, databaseFlag?: string, env: Env = process.env): Promise<LocalData> {
  const dataDir = resolveDataDir(dataDirFlag, env);
  const target = databaseTargetOrRefuse(databaseFlag, dataDir, env);
  const settings = loadSettings();
  // Session folders and recordings stay in the data directory whichever database holds the rows.
  ensureWritableDir(dataDir);
  const storage = await openStorageOrRefuse(target);
  const { db, sqliteReads: reads } = storage;
  const agents = new AgentRegistry(dataDir);
  const cards = new CardStore(db);
  const sessions = new SessionService({
    db,
    reads,
    dataDir,
    settings,
    agents,
    ownerUrl: "",
    log: () => undefined,
    briefing: cards.briefingOrNothing(() => undefined),
  });
  return { dataDir, target, storage, db, reads, settings, agents, sessions, cards, close: () => storage.close() };
}
