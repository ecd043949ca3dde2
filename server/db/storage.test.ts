// openStorage on both databases: migrated, opened, the same Prisma API, closed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "./storage.ts";
import { postgresAvailable, testPostgresUrl } from "./test-postgres.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-storage-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What every caller relies on, whichever database it is. */
async function exercise(storage: Storage) {
  const db = storage.db;
  await db.studySession.create({ data: { id: "s1", topic: "Fourier", energy: 3, agent: "tutor", transport: "pty", liveSlot: 1 } });
  // The live slot is the database's: a second live session is refused by the unique index.
  await expect(
    db.studySession.create({ data: { id: "s2", topic: "Again", energy: 3, agent: "tutor", transport: "pty", liveSlot: 1 } }),
  ).rejects.toMatchObject({ code: "P2002" });
  await db.acpEvent.create({ data: { sessionId: "s1", seq: 1, kind: "text", payload: "{}" } });
  await db.topicMark.create({ data: { id: "m1", sessionId: "s1", topic: "Fourier", status: "win" } });
  const row = await db.studySession.findUniqueOrThrow({ where: { id: "s1" }, include: { topicMarks: true, acpEvents: true } });
  expect(row.startedAt).toBeInstanceOf(Date);
  expect(row.attachedOnce).toBe(false);
  expect(row.topicMarks.map((m) => m.status)).toEqual(["win"]);
  expect(row.acpEvents[0]!.id).toBeGreaterThan(0);
  // ON DELETE CASCADE as in the schema.
  await db.studySession.delete({ where: { id: "s1" } });
  expect(await db.topicMark.count()).toBe(0);
}

describe("openStorage on SQLite", () => {
  it("migrates the file, opens Prisma and the read connection, and closes both", async () => {
    const file = path.join(tmp, "data", "studyloop.db");
    const storage = await openStorage({ provider: "sqlite", file });
    expect(storage.provider).toBe("sqlite");
    expect(storage.applied.length).toBeGreaterThan(0);
    expect(storage.sqliteReads!.prepare("SELECT count(*) AS n FROM study_sessions").get()).toEqual({ n: 0 });
    expect(storage.pgPool).toBeNull();
    // A write-ahead log whose commits do not wait for the disk (migrate.ts, setWriteAheadLog).
    expect(storage.sqliteReads!.pragma("journal_mode", { simple: true })).toBe("wal");
    const [sync] = await storage.db.$queryRawUnsafe<{ synchronous: bigint }[]>("PRAGMA synchronous");
    expect(Number(sync!.synchronous)).toBe(1); // NORMAL
    await exercise(storage);
    // Another process opening the file sees what was committed (the log, not only the main file).
    await storage.db.studySession.create({ data: { id: "s3", topic: "Logs", energy: 2, agent: "tutor", transport: "pty" } });
    const other = new Database(file, { readonly: true });
    expect(other.prepare("SELECT id FROM study_sessions").all()).toEqual([{ id: "s3" }]);
    other.close();
    await storage.close();
    expect(storage.sqliteReads!.open).toBe(false);
    const again = await openStorage({ provider: "sqlite", file });
    expect(again.applied).toEqual([]);
    await again.close();
  });
});

describe.runIf(postgresAvailable())("openStorage on PostgreSQL (real PostgreSQL)", () => {
  it("migrates the database, opens Prisma on a pool, and closes it", async () => {
    const url = await testPostgresUrl();
    const storage = await openStorage({ provider: "postgresql", url });
    expect(storage.provider).toBe("postgresql");
    expect(storage.applied).toContain("20261203000000_init");
    expect(storage.sqliteReads).toBeNull();
    await exercise(storage);
    const { rows } = await storage.pgPool!.query<{ n: string }>("SELECT count(*) AS n FROM study_sessions");
    expect(rows).toEqual([{ n: "0" }]);
    await storage.close();
    await storage.close(); // twice is harmless
    expect(storage.pgPool!.ended).toBe(true);
    const again = await openStorage({ provider: "postgresql", url });
    expect(again.applied).toEqual([]);
    await again.close();
  });

  it("connects without JIT compiling (a long plan compiled for longer than it ran)", async () => {
    const storage = await openStorage({ provider: "postgresql", url: await testPostgresUrl() });
    try {
      expect(await storage.db.$queryRawUnsafe("SHOW jit")).toEqual([{ jit: "off" }]);
    } finally {
      await storage.close();
    }
  });
});
