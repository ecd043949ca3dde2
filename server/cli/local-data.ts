// The data layer as a CLI command uses it: the same migrations, database and session rules as the
// web server, opened directly in this process (no server needs to run).
import { databaseFile, resolveDataDir } from "../config/paths.ts";
import { loadSettings, type Settings } from "../config/settings.ts";
import { applyMigrations, MigrationError } from "../db/migrate.ts";
import { openDatabase, openReadConnection, type Db, type ReadConnection } from "../db/client.ts";
import { AgentRegistry } from "../agents/agent-registry.ts";
import { SessionService } from "../sessions/session-service.ts";
import { CardStore } from "../cards/card-store.ts";
import { ensureWritableDir } from "./web.ts";
import { UsageError } from "./options.ts";

export interface LocalData {
  readonly dataDir: string;
  readonly db: Db;
  readonly reads: ReadConnection;
  readonly settings: Settings;
  readonly agents: AgentRegistry;
  readonly sessions: SessionService;
  readonly cards: CardStore;
  close(): Promise<void>;
}

export async function openLocalData(dataDirFlag: string | undefined): Promise<LocalData> {
  const dataDir = resolveDataDir(dataDirFlag);
  ensureWritableDir(dataDir);
  try {
    applyMigrations(databaseFile(dataDir));
  } catch (error) {
    if (error instanceof MigrationError) throw new UsageError(error.learnerMessage);
    throw error;
  }
  const settings = loadSettings();
  const db = openDatabase(databaseFile(dataDir));
  const reads = openReadConnection(databaseFile(dataDir));
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
  const close = async () => {
    await db.$disconnect();
    reads.close();
  };
  return { dataDir, db, reads, settings, agents, sessions, cards, close };
}
