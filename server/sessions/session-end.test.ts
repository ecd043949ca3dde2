// SessionStore.end on a real migrated SQLite file: an orphan ended at its last heartbeat as read ends no
// earlier than a heartbeat its owner wrote after that read (a tmux wrapper beating as tmux went), and
// its summary's duration follows; an end that is not a takeover keeps its own time.
import { describe, expect, it } from "vitest";
import { storeOnSqlite } from "./test-store.ts";

const sqlite = storeOnSqlite("studyloop-end-");

const started = new Date("2026-12-04T10:00:00.000Z");
const firstBeat = new Date("2026-12-04T10:30:00.000Z");
const laterBeat = new Date("2026-12-04T10:30:01.000Z");

async function liveTmuxRow(id: string) {
  await sqlite.db.studySession.create({
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
  return (await sqlite.store.byId(id))!;
}

describe("SessionStore.end", () => {
  it("ends an orphan no earlier than a heartbeat written after it was read", async () => {
    const row = await liveTmuxRow("orphan");
    // The wrapper beats once more between the reader's read and its end.
    expect(await sqlite.store.heartbeatTmux("orphan", laterBeat)).toBe(true);
    expect(await sqlite.store.end(row, { reason: "tmux-gone", endedAt: row.heartbeatAt!, takeover: true }, row)).toBe(true);
    const ended = await sqlite.db.studySession.findUniqueOrThrow({ where: { id: "orphan" } });
    expect(ended.endedAt).toEqual(laterBeat);
    expect(ended.endedAt!.getTime()).toBeGreaterThanOrEqual(ended.heartbeatAt!.getTime());
    expect(JSON.parse(ended.summary!).durationMinutes).toBe(30);
    // Ended: a beat after the end is refused, so the end stays where it is.
    expect(await sqlite.store.heartbeatTmux("orphan", new Date("2026-12-04T10:30:02.000Z"))).toBe(false);
  });

  it("keeps the time an end that is not a takeover was given", async () => {
    const row = await liveTmuxRow("own-end");
    expect(await sqlite.store.heartbeatTmux("own-end", laterBeat)).toBe(true);
    expect(await sqlite.store.end(row, { reason: "agent-exited", endedAt: firstBeat, exitCode: 0 })).toBe(true);
    const ended = await sqlite.db.studySession.findUniqueOrThrow({ where: { id: "own-end" } });
    expect(ended.endedAt).toEqual(firstBeat);
  });
});
