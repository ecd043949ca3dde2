// The state read's prepared statements must return exactly what Prisma returns for the same rows:
// Prisma is the oracle here, on a real migrated SQLite file.
import { describe, expect, it } from "vitest";
import { storeOnSqlite } from "./test-store.ts";
import { normalizeStoredTime } from "./session-rows.ts";

const sqlite = storeOnSqlite("studyloop-rows-");

const base = { topic: "closures", energy: 6, agent: "claude", transport: "pty" };
const oracleOpen = () =>
  sqlite.db.studySession.findMany({ where: { endedAt: null }, orderBy: { startedAt: "desc" }, omit: { transcript: true } });
const oracleLastEnded = () =>
  sqlite.db.studySession.findFirst({ where: { endedAt: { not: null } }, orderBy: { endedAt: "desc" }, omit: { transcript: true } });

describe("SessionStore reads by prepared statement", () => {
  it("return nothing from an empty table", async () => {
    expect(await sqlite.store.open()).toEqual([]);
    expect(await sqlite.store.lastEnded()).toBeNull();
  });

  it("read an open row exactly as Prisma does, every column type included", async () => {
    await sqlite.db.studySession.create({
      data: {
        ...base,
        id: "live-1",
        status: "live",
        startedAt: new Date("2026-11-29T10:00:00.123Z"),
        heartbeatAt: new Date("2026-11-29T10:05:00Z"),
        pausedAt: new Date("2026-11-29T10:03:00Z"),
        pausedMs: 1500,
        ownerInstance: "inst",
        ownerHost: "host",
        ownerBootId: "boot",
        ownerPid: 4242,
        ownerPidStartTime: "123456",
        ownerUrl: "http://127.0.0.1:3000",
        liveSlot: 1,
        attachedOnce: true,
        nudgesShown: '[{"n":1}]',
        transcript: "screen",
        transcriptAt: new Date("2026-11-29T10:04:00Z"),
      },
    });
    const rows = await sqlite.store.open();
    expect(rows).toEqual(await oracleOpen());
    expect(rows[0]).not.toHaveProperty("transcript");
    expect(rows[0]!.attachedOnce).toBe(true);
    expect(rows[0]!.startedAt).toBeInstanceOf(Date);
  });

  it("pick the last ended row and the open ones like Prisma, nulls and false included", async () => {
    for (let i = 0; i < 5; i++) {
      await sqlite.db.studySession.create({
        data: {
          ...base,
          id: `ended-${i}`,
          status: "ended",
          startedAt: new Date(Date.UTC(2026, 10, 1 + i, 9)),
          endedAt: new Date(Date.UTC(2026, 10, 1 + i, 10)),
          endReason: i % 2 ? "agent-exited" : "ended-by-learner",
          exitCode: i % 2 ? 1 : null,
          summary: JSON.stringify({ wins: i }),
        },
      });
    }
    await sqlite.db.studySession.create({ data: { ...base, id: "starting-1", status: "starting", liveSlot: 1 } });
    expect(await sqlite.store.lastEnded()).toEqual(await oracleLastEnded());
    expect((await sqlite.store.lastEnded())!.id).toBe("ended-4");
    expect((await sqlite.store.lastEnded())!.attachedOnce).toBe(false);
    expect(await sqlite.store.open()).toEqual(await oracleOpen());
  });

  it("read times written by other programs (SQLite's CURRENT_TIMESTAMP, offsets) as Prisma does", async () => {
    await sqlite.db.$executeRawUnsafe(
      `INSERT INTO study_sessions (id, topic, energy, agent, transport, status, ended_at, heartbeat_at, paused_at, transcript_at, last_viewer_at)
       VALUES ('raw-1', 't', 3, 'a', 'tmux', 'ended', '2026-11-29 10:00:00', '2026-11-29T10:00:00+02', '2026-11-29T10:00:00.5+0130', '2026-11-29', 1764410400000)`,
    );
    expect(await sqlite.store.lastEnded()).toEqual(await oracleLastEnded());
  });

  it("give back the same row while its stored values are unchanged, and after any change the row as Prisma reads it", async () => {
    await sqlite.db.studySession.create({
      data: { ...base, id: "live-1", status: "live", liveSlot: 1, heartbeatAt: new Date("2026-11-29T10:00:00Z") },
    });
    await sqlite.db.studySession.create({ data: { ...base, id: "ended-1", status: "ended", endedAt: new Date("2026-11-29T09:00:00Z") } });
    const [open, ended] = [await sqlite.store.open(), await sqlite.store.lastEnded()];
    expect(await sqlite.store.open()).toEqual(open);
    expect((await sqlite.store.open())[0]).toBe(open[0]);
    expect(await sqlite.store.lastEnded()).toBe(ended);

    await sqlite.db.studySession.update({ where: { id: "live-1" }, data: { heartbeatAt: new Date("2026-11-29T10:00:05Z") } });
    await sqlite.db.studySession.update({ where: { id: "ended-1" }, data: { summary: '{"wins":1}' } });
    const [open2, ended2] = [await sqlite.store.open(), await sqlite.store.lastEnded()];
    expect(open2[0]).not.toBe(open[0]);
    expect(open2).toEqual(await oracleOpen());
    expect(ended2).not.toBe(ended);
    expect(ended2).toEqual(await oracleLastEnded());
    expect(ended).toMatchObject({ summary: null });
  });

  it("never write", () => {
    expect(() => sqlite.reads.prepare("DELETE FROM study_sessions").run()).toThrow(/readonly|query_only/i);
  });
});

describe("normalizeStoredTime", () => {
  it.each([
    ["2026-11-29T10:00:00.000+00:00", "2026-11-29T10:00:00.000+00:00"],
    ["2026-11-29 10:00:00", "2026-11-29T10:00:00Z"],
    ["2026-11-29T10:00:00+02", "2026-11-29T10:00:00+02:00"],
    ["2026-11-29", "2026-11-29T00:00:00Z"],
    ["10:00:00", "1970-01-01T10:00:00Z"],
  ])("%s -> %s", (stored, iso) => expect(normalizeStoredTime(stored)).toBe(iso));
});
