// The lease thread: renews every lease this server holds, every heartbeat, on its own database
// connection, so work on the server's main thread (a page, a large recording, a socket storm) can
// never starve a renewal. Each renewal is fenced like every owner write (id, owner instance,
// generation, still open). Bundled into one plain script and evaluated (lease-thread.ts).
import fs from "node:fs";
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { prismaTime, type LeaseFence, type LeaseReply, type LeaseRequest, type LeaseWorkerData } from "./lease-protocol.ts";

const data = workerData as LeaseWorkerData;
const port = parentPort!;

interface Held {
  fence: LeaseFence;
  leaseFile: string | null;
}

/** One fenced renewal: true when it committed, false when the fence refused it. */
type Renew = (id: string, fence: LeaseFence) => Promise<boolean>;

const held = new Map<string, Held>();
const post = (reply: LeaseReply) => port.postMessage(reply);
const epochNow = () => performance.timeOrigin + performance.now();
/** The drivers by absolute path: this script is evaluated, so there is no file to resolve from. */
const load = (file: string): unknown => createRequire(file)(file);

function sqliteRenewer(file: string): { renew: Renew; close: () => void } {
  const Database = load(data.modules.sqlite) as typeof import("better-sqlite3");
  // Its own connection: waits for a busy writer on this thread, never on the server's.
  const db = new Database(file, { fileMustExist: true, timeout: data.heartbeatMs });
  const update = db.prepare(
    `UPDATE "study_sessions" SET "heartbeat_at" = ? WHERE "id" = ? AND "owner_instance" = ? AND "owner_generation" = ? AND "ended_at" IS NULL`,
  );
  return {
    // One machine, so this clock is every reader's. Written exactly as Prisma writes a DateTime on SQLite
    // ("…+00:00", not "…Z"): a reader's end is conditional on the heartbeat text it read.
    renew: async (id, fence) => update.run(prismaTime(new Date()), id, fence.instanceId, fence.generation).changes === 1,
    close: () => db.close(),
  };
}

function postgresRenewer(url: string): { renew: Renew; close: () => void } {
  const pg = load(data.modules.pg) as typeof import("pg");
  const timeout = data.heartbeatMs * 2;
  let client: import("pg").Client | null = null;
  const connect = async () => {
    if (client) return client;
    const fresh = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
      keepAlive: true,
      application_name: "studyloop-lease",
    });
    // A dropped connection is replaced on the next renewal.
    fresh.on("error", () => {
      if (client === fresh) client = null;
    });
    await fresh.connect();
    return (client = fresh);
  };
  return {
    renew: async (id, fence) => {
      try {
        const result = await (
          await connect()
        ).query(
          `UPDATE "study_sessions" SET "heartbeat_at" = (now() AT TIME ZONE 'UTC')::timestamp(3)
            WHERE "id" = $1 AND "owner_instance" = $2 AND "owner_generation" = $3 AND "ended_at" IS NULL`,
          [id, fence.instanceId, fence.generation],
        );
        return result.rowCount === 1;
      } catch (error) {
        const dead = client;
        client = null;
        void dead?.end().catch(() => undefined);
        throw error;
      }
    },
    close: () => void client?.end().catch(() => undefined),
  };
}

const connection = data.target.provider === "sqlite" ? sqliteRenewer(data.target.file) : postgresRenewer(data.target.url);

/** Tells the agent's supervisor the lease is renewed (it stops the agent when told nothing for too long). */
function touch(file: string): void {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
  } catch {
    try {
      fs.writeFileSync(file, "", { mode: 0o600 });
    } catch {
      // The supervisor's folder is gone (the session ended): nothing to tell.
    }
  }
}

async function renewOne(id: string, entry: Held): Promise<void> {
  const sentAt = epochNow();
  try {
    const committed = await connection.renew(id, entry.fence);
    if (held.get(id) !== entry) return; // released or held anew meanwhile
    if (!committed) {
      held.delete(id);
      post({ type: "lost", id, generation: entry.fence.generation });
      return;
    }
    if (entry.leaseFile && epochNow() - sentAt <= data.touchWithinMs) touch(entry.leaseFile);
    post({ type: "renewed", id, generation: entry.fence.generation, sentAt });
  } catch (error) {
    post({ type: "failed", id, error: error instanceof Error ? error.message : String(error) });
  }
}

let running = false;
async function renewAll(): Promise<void> {
  if (running) return; // a slow database: the next beat starts when this one ends
  running = true;
  try {
    for (const [id, entry] of [...held]) await renewOne(id, entry);
  } finally {
    running = false;
  }
}

const timer = setInterval(() => void renewAll(), data.heartbeatMs);

port.on("message", (request: LeaseRequest) => {
  switch (request.type) {
    case "hold": {
      const entry = { fence: request.fence, leaseFile: request.leaseFile };
      const known = held.get(request.id);
      held.set(request.id, entry);
      // A new hold (or a new generation) is renewed at once: the row was just claimed or written.
      if (!known || known.fence.generation !== request.fence.generation) void renewOne(request.id, entry);
      break;
    }
    case "release":
      held.delete(request.id);
      break;
    case "stop":
      clearInterval(timer);
      held.clear();
      connection.close();
      post({ type: "stopped" });
      port.close();
      break;
  }
});
