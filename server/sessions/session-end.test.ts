// SessionStore.end on a real migrated SQLite file: an orphan ended at its last heartbeat as read ends no
// earlier than a heartbeat its owner wrote after that read (a tmux wrapper beating as tmux went), and
// its summary's duration follows; an end that is not a takeover keeps its own time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, openReadConnection, type Db, type ReadConnection } from "../db/client.ts";
import { SessionStore } from "./session-store.ts";

let tmp: string;
let db: Db;
let reads: ReadConnection;
let store: SessionStore;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-end-"));
  const file = path.join(tmp, "studyloop.db");
  applyMigrations(file);
  db = openDatabase(file);
  reads = openReadConnection(file);
  store = new SessionStore(db, reads);
});
afterEach(async () => {
  await db.$disconnect();
  reads.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const started = new Date("2026-12-04T10:00:00.000Z");
const firstBeat = new Date("2026-12-04T10:30:00.000Z");
const laterBeat = new Date("2026-12-04T10:30:01.000Z");

async function liveTmuxRow(id: string) {
  await db.studySession.create({
    data: {
      id,
      topic: "closures",
      energy: 6,
      agent: "tutor",
      transport: "tmux",
      status: "live",
      startedAt: started,
      heartbeatAt: firstBeat,
      muxSession: `sl-${id}`,
      liveSlot: 1,
    },
  });
  return (await store.byId(id))!;
}

describe("SessionStore.end", () => {
  it("ends an orphan no earlier than a heartbeat written after it was read", async () => {
    const row = await liveTmuxRow("orphan");
    // The wrapper beats once more between the reader's read and its end.
    expect(await store.heartbeatTmux("orphan", laterBeat)).toBe(true);
    expect(await store.end(row, { reason: "tmux-gone", endedAt: row.heartbeatAt!, takeover: true }, row)).toBe(true);
    const ended = await db.studySession.findUniqueOrThrow({ where: { id: "orphan" } });
    expect(ended.endedAt).toEqual(laterBeat);
    expect(ended.endedAt!.getTime()).toBeGreaterThanOrEqual(ended.heartbeatAt!.getTime());
    expect(JSON.parse(ended.summary!).durationMinutes).toBe(30);
    // Ended: a beat after the end is refused, so the end stays where it is.
    expect(await store.heartbeatTmux("orphan", new Date("2026-12-04T10:30:02.000Z"))).toBe(false);
  });

  it("keeps the time an end that is not a takeover was given", async () => {
    const row = await liveTmuxRow("own-end");
    expect(await store.heartbeatTmux("own-end", laterBeat)).toBe(true);
    expect(await store.end(row, { reason: "agent-exited", endedAt: firstBeat, exitCode: 0 })).toBe(true);
    const ended = await db.studySession.findUniqueOrThrow({ where: { id: "own-end" } });
    expect(ended.endedAt).toEqual(firstBeat);
  });
});
