// PostgreSQL's faults as StudyLoop classifies them, provoked for real on a PostgreSQL the test starts
// (stopped, a backend terminated or killed, rows locked, a serialization conflict, a deadlock).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyDbFault, dbFaultSentence, isDbUnavailable, withDb, type DbUnavailable } from "./db-faults.ts";
import { openStorage, type Storage } from "./storage.ts";
import { postgresAvailable, startPostgresCluster, type PostgresCluster } from "./test-postgres.ts";

const caught = <T>(p: Promise<T>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(postgresAvailable())("PostgreSQL faults (real PostgreSQL)", () => {
  let cluster: PostgresCluster;
  let url: string;
  let storage: Storage;
  const clients: pg.Client[] = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => undefined); // a terminated backend reports here too
    await c.connect();
    clients.push(c);
    return c;
  };
  /** Waits until the statement is running in PostgreSQL, then kills its backend with `how`. */
  const killRunning = async (marker: string, how: "terminate" | "SIGKILL") => {
    for (;;) {
      const { rows } = await cluster.admin<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid() AND state = 'active'",
        [`%${marker}%`],
      );
      if (rows[0]) {
        if (how === "terminate") await cluster.admin("SELECT pg_terminate_backend($1)", [rows[0].pid]);
        else process.kill(rows[0].pid, "SIGKILL");
        return;
      }
      await sleep(50);
    }
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await cluster.createDatabase();
    storage = await openStorage({ provider: "postgresql", url });
    await storage.db.studySession.create({ data: { id: "s1", topic: "Fourier", energy: 3, agent: "tutor", transport: "pty" } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await storage?.close().catch(() => undefined);
    cluster?.destroy();
  });

  it("a row lock another connection holds is a conflict (55P03), from pg and from Prisma", async () => {
    const holder = await client();
    await holder.query("BEGIN");
    await holder.query("SELECT * FROM study_sessions FOR UPDATE");
    const fromPg = await caught(storage.pgPool!.query("SELECT * FROM study_sessions FOR UPDATE NOWAIT"));
    const fromPrisma = await caught(
      storage.db.$transaction([
        storage.db.$executeRawUnsafe("SET LOCAL lock_timeout = '100ms'"),
        storage.db.studySession.update({ where: { id: "s1" }, data: { topic: "blocked" } }),
      ]),
    );
    await holder.query("ROLLBACK");
    expect(classifyDbFault(fromPg)).toBe("conflict");
    expect(classifyDbFault(fromPrisma)).toBe("conflict");
  });

  it("a serialization failure (40001) is a conflict, and withDb retries it to success", async () => {
    const other = await client();
    let attempts = 0;
    const result = await withDb(
      "rename the session",
      () =>
        storage.db.$transaction(
          async (tx) => {
            attempts++;
            const row = await tx.studySession.findUniqueOrThrow({ where: { id: "s1" } });
            // Another StudyLoop changes the row between our read and our write, once.
            if (attempts === 1) await other.query("UPDATE study_sessions SET topic = 'theirs' WHERE id = 's1'");
            return tx.studySession.update({ where: { id: "s1" }, data: { topic: `${row.topic}+ours` } });
          },
          { isolationLevel: "Serializable" },
        ),
      { pauseMs: 10 },
    );
    expect(attempts).toBe(2);
    expect(result.topic).toBe("theirs+ours");
  });

  it("a deadlock (40P01) is a conflict", async () => {
    await storage.db.studySession.create({ data: { id: "s2", topic: "Other", energy: 3, agent: "tutor", transport: "pty" } });
    const [a, b] = [await client(), await client()];
    await a.query("BEGIN");
    await b.query("BEGIN");
    await a.query("UPDATE study_sessions SET energy = 4 WHERE id = 's1'");
    await b.query("UPDATE study_sessions SET energy = 4 WHERE id = 's2'");
    const first = a.query("UPDATE study_sessions SET energy = 5 WHERE id = 's2'").catch((e: unknown) => e);
    const second = b.query("UPDATE study_sessions SET energy = 5 WHERE id = 's1'").catch((e: unknown) => e);
    const outcomes = await Promise.all([first, second]);
    await a.query("ROLLBACK");
    await b.query("ROLLBACK");
    const deadlock = outcomes.find((o) => o instanceof Error);
    expect((deadlock as { code?: string }).code).toBe("40P01");
    expect(classifyDbFault(deadlock)).toBe("conflict");
  });

  it("a terminated backend (57P01) is unreachable, from pg and from Prisma; the pool then carries on", async () => {
    const fromPrisma = storage.db.$queryRawUnsafe("SELECT pg_sleep(30)::text AS prisma_victim").catch((e: unknown) => e);
    await killRunning("prisma_victim", "terminate");
    const fromPg = storage.pgPool!.query("SELECT pg_sleep(30)::text AS pg_victim").catch((e: unknown) => e);
    await killRunning("pg_victim", "terminate");
    expect(postgresCodeOf(await fromPrisma)).toBe("57P01");
    expect(classifyDbFault(await fromPrisma)).toBe("unreachable");
    expect(((await fromPg) as { code?: string }).code).toBe("57P01");
    expect(classifyDbFault(await fromPg)).toBe("unreachable");
    expect(await storage.db.studySession.count()).toBeGreaterThan(0);
  });

  it("a backend killed outright (the socket just closes) is unreachable", async () => {
    const fromPrisma = storage.db.$queryRawUnsafe("SELECT pg_sleep(30)::text AS killed_victim").catch((e: unknown) => e);
    await killRunning("killed_victim", "SIGKILL");
    const error = await fromPrisma;
    expect((error as Error).message).toMatch(/Connection terminated/);
    expect(classifyDbFault(error)).toBe("unreachable");
    // PostgreSQL restarts its backends after a crash; wait for it before the next test.
    for (let i = 0; i < 100; i++) {
      if (
        await storage.db.studySession.count().then(
          () => true,
          () => false,
        )
      )
        break;
      await sleep(100);
    }
  });

  it("a stopped server is unreachable (Prisma P1001, pg ECONNREFUSED, opening storage), with a sentence; nothing is retried", async () => {
    cluster.stop("fast");
    try {
      const fromPrisma = await caught(storage.db.studySession.findMany());
      const fromPg = await caught(storage.pgPool!.query("SELECT 1"));
      const fromOpen = await caught(openStorage({ provider: "postgresql", url }));
      // Prisma says P1001 when it opens a connection, or passes on 57P01 from one the shutdown closed.
      expect(["P1001", "P2039", "P2010"]).toContain((fromPrisma as { code?: string }).code);
      expect((fromPg as { code?: string }).code).toBe("ECONNREFUSED");
      for (const e of [fromPrisma, fromPg, fromOpen]) expect(classifyDbFault(e)).toBe("unreachable");

      let calls = 0;
      const error = await caught(
        withDb("park the thought", () => {
          calls++;
          return storage.db.parkedItem.create({ data: { id: "p1", text: "later" } });
        }),
      );
      expect(calls).toBe(1);
      expect(isDbUnavailable(error)).toBe(true);
      expect((error as DbUnavailable).kind).toBe("unreachable");
      expect((error as DbUnavailable).message).toBe(dbFaultSentence("unreachable", "park the thought"));
      expect((error as DbUnavailable).message).toMatch(/^StudyLoop could not park the thought: the database server cannot be reached/);
    } finally {
      await cluster.start();
    }
    expect(await storage.db.studySession.count()).toBeGreaterThan(0);
  });

  it("a constraint is not a fault", async () => {
    const dup = await caught(
      storage.db.studySession.create({ data: { id: "s1", topic: "x", energy: 3, agent: "tutor", transport: "pty" } }),
    );
    expect((dup as { code?: string }).code).toBe("P2002");
    expect(classifyDbFault(dup)).toBeNull();
  });
});

function postgresCodeOf(error: unknown): string | undefined {
  return (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } }).meta?.driverAdapterError?.cause?.originalCode;
}
