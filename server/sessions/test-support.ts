// Test helpers for the session core: a temp data directory with a real SQLite file, a fake
// transport whose agent the test exits or lets run, and a service built on them. No pty, no tmux.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, openReadConnection, type Db, type ReadConnection } from "../db/client.ts";
import { databaseFile } from "../config/paths.ts";
import type { Provider } from "../db/database-target.ts";
import { openTestStorage } from "../db/test-storage.ts";
import { loadSettings, type Settings } from "../config/settings.ts";
import { AgentRegistry } from "../agents/agent-registry.ts";
import type { LiveTransport, TransportExit } from "../transports/live-transport.ts";
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import { StoreRenewals } from "./lease/store-renewals.ts";
import { LeaseThread } from "./lease/lease-thread.ts";
import type { LeaseRenewalsFactory } from "./lease-keeper.ts";
import { SessionService } from "./session-service.ts";
import type { Launch } from "./start-request.ts";

export class FakeTransport implements LiveTransport {
  readonly name: string;
  readonly view: "terminal" | "chat";
  readonly agentSessionId = null;
  lastSeq = 0;
  killed = false;
  disposed = false;
  output = "tutor ready\r\n";
  /** Runs inside snapshotTranscript: a test can make the database fail between two steps of an end. */
  onSnapshot: () => void = () => undefined;
  private readonly exits = new Set<(exit: TransportExit) => void>();

  constructor(readonly launch: Launch) {
    this.name = launch.transport;
    this.view = launch.transport === "acp" ? "chat" : "terminal";
  }

  /** When set, snapshotTranscript waits for it (a mirror far behind a flood). */
  snapshotGate: Promise<void> | null = null;

  async snapshotTranscript(): Promise<string> {
    this.onSnapshot();
    if (this.snapshotGate) await this.snapshotGate;
    return this.output;
  }
  lastLines(transcript: string | null): string[] {
    return (transcript ?? "")
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .slice(-8);
  }
  startupFailure(): string | null {
    return null;
  }
  onExit(cb: (exit: TransportExit) => void): { dispose(): void } {
    this.exits.add(cb);
    return { dispose: () => this.exits.delete(cb) };
  }
  /** The agent exits on its own. */
  exit(exitCode: number): void {
    for (const cb of [...this.exits]) cb({ exitCode });
  }
  async screenPreview(): Promise<null> {
    return null;
  }
  terminal(): undefined {
    return undefined;
  }
  chat(): undefined {
    return undefined;
  }
  async attachTerminal(_viewerId: string, _send: (frame: TerminalFrame) => void): Promise<boolean> {
    return this.view === "terminal";
  }
  async attachChat(): Promise<boolean> {
    return this.view === "chat";
  }
  detach(): void {}
  kill(): void {
    this.killed = true;
  }
  dispose(): void {
    this.disposed = true;
  }
  async flushed(): Promise<void> {}
}

export interface TestCore {
  readonly dir: string;
  readonly file: string;
  readonly db: Db;
  /** SQLite's read connection; null on PostgreSQL. */
  readonly reads: ReadConnection | null;
  readonly service: SessionService;
  readonly transports: FakeTransport[];
  readonly settings: Settings;
  readonly log: string[];
  /** The next launch throws this (an agent that cannot start). */
  failNextLaunch: string | null;
  /** Moves the service's clock. */
  advance(ms: number): void;
  /** Another program holding the write lock (like `sqlite3` with BEGIN IMMEDIATE); returns its release. */
  holdWriteLock(): () => void;
  /** One heartbeat of every lease this core holds, now (leases are renewed on their own beat). */
  beat(): Promise<void>;
  /** This core stops renewing its leases, as a server that died would (resolves once none is in flight). */
  stopBeating(): Promise<void>;
  close(): Promise<void>;
}

export function makeTestCore(env: Record<string, string> = {}, dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-core-"))): TestCore {
  writeTestConfig(dir);
  const file = databaseFile(dir);
  applyMigrations(file);
  const db = openDatabase(file);
  const reads = openReadConnection(file);
  return coreOn({
    dir,
    file,
    db,
    reads,
    env,
    close: async () => {
      await db.$disconnect();
      reads.close();
    },
  });
}

/** A TestCore on either database (PostgreSQL: a new database on the test process's cluster, no `file`). */
export async function makeTestCoreOn(
  provider: Provider,
  env: Record<string, string> = {},
  options: { readonly leaseThread?: boolean } = {},
): Promise<TestCore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-core-"));
  writeTestConfig(dir);
  const storage = await openTestStorage(provider);
  // The server's own renewals (a thread with its own connection), or the store's (the default).
  const leases: LeaseRenewalsFactory | undefined = options.leaseThread
    ? (setup) => new LeaseThread({ target: storage.target, ...setup, log: () => undefined })
    : undefined;
  const file = storage.target.provider === "sqlite" ? storage.target.file : "";
  return coreOn({ dir, file, db: storage.db, reads: storage.sqliteReads, env, leases, close: () => storage.dispose() });
}

function writeTestConfig(dir: string): void {
  fs.writeFileSync(
    path.join(dir, "studyloop.config.json"),
    JSON.stringify({
      agents: {
        tutor: {
          label: "Test tutor",
          command: process.execPath,
          args: ["-e", "0"],
          resumeArgs: ["--resumed"],
          acp: { command: process.execPath, args: [] },
        },
      },
    }),
  );
}

/**
 * Another "host" on the same database as `core` (or on `db`, e.g. PostgreSQL through a proxy the
 * test can cut): its own data directory, instance and STUDYLOOP_HOST_ID. Closing it only stops it.
 */
export function makeHostCore(
  core: Pick<TestCore, "db" | "reads">,
  hostId: string,
  env: Record<string, string> = {},
  db: Db = core.db,
  close: () => Promise<void> = async () => undefined,
): TestCore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-host-"));
  writeTestConfig(dir);
  return coreOn({ dir, file: "", db, reads: db === core.db ? core.reads : null, env: { ...env, STUDYLOOP_HOST_ID: hostId }, close });
}

function coreOn(options: {
  dir: string;
  file: string;
  db: Db;
  reads: ReadConnection | null;
  env: Record<string, string>;
  leases?: LeaseRenewalsFactory | undefined;
  close: () => Promise<void>;
}): TestCore {
  const { dir, file, db, reads, env } = options;
  const settings = loadSettings({ STUDYLOOP_HEARTBEAT_SECONDS: "1", ...env } as unknown as NodeJS.ProcessEnv);
  let offset = 0;
  const transports: FakeTransport[] = [];
  const log: string[] = [];
  const failing = { next: null as string | null };
  let renewals: { renewAll?(): Promise<void>; close(): Promise<void> } | undefined;
  const service = new SessionService({
    db,
    reads,
    dataDir: dir,
    settings,
    agents: new AgentRegistry(dir, { PATH: process.env.PATH } as unknown as NodeJS.ProcessEnv),
    ownerUrl: env.STUDYLOOP_HOST_ID ? `http://${env.STUDYLOOP_HOST_ID}.test:4000` : "http://127.0.0.1:0",
    ...(env.STUDYLOOP_HOST_ID ? { hostId: env.STUDYLOOP_HOST_ID } : {}),
    log: (line) => log.push(line),
    now: () => new Date(Date.now() + offset),
    leases: (setup) => (renewals = options.leases ? options.leases(setup) : new StoreRenewals(setup)),
    transports: async (launch) => {
      const failure = failing.next;
      failing.next = null;
      if (failure) throw new Error(failure);
      const t = new FakeTransport(launch);
      transports.push(t);
      return t;
    },
  });
  return {
    get failNextLaunch() {
      return failing.next;
    },
    set failNextLaunch(value: string | null) {
      failing.next = value;
    },
    dir,
    file,
    db,
    reads,
    service,
    transports,
    settings,
    log,
    advance: (ms) => void (offset += ms),
    holdWriteLock: () => {
      if (!file) throw new Error("holdWriteLock is SQLite's: this core is on PostgreSQL.");
      const holder = new Database(file);
      holder.exec("BEGIN IMMEDIATE");
      return () => {
        holder.exec("ROLLBACK");
        holder.close();
      };
    },
    beat: async () => {
      await service.tick();
      await renewals?.renewAll?.();
    },
    stopBeating: async () => {
      await service.tick();
      await renewals?.close();
    },
    close: async () => {
      await service.shutdown();
      await options.close();
    },
  };
}

export const START = { topic: "closures", energy: 6, agent: "tutor", transport: "pty", focusPlan: "energy" } as const;
