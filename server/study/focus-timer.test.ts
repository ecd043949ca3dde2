// The focus timer's bus events on a real SQLite file: a nudge that comes due is said once
// ("break-due", with what the notifier shows), and a break taken for it is said to be over once.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeTestCore, START, type TestCore } from "../sessions/test-support.ts";
import type { StudyEvent } from "../sessions/session-events.ts";
import { FocusTimer } from "./focus-timer.ts";

const MIN = 60_000;
let core: TestCore | undefined;
afterEach(async () => {
  await core?.close();
  if (core) fs.rmSync(core.dir, { recursive: true, force: true });
  core = undefined;
});

async function setUp() {
  core = makeTestCore();
  const { session } = await core.service.start({ ...START, focusPlan: "pomodoro" });
  const timer = new FocusTimer(core.db, core.service, core.service.events, MIN, () => undefined);
  const heard: StudyEvent[] = [];
  core.service.events.on("study", (event) => heard.push(event));
  const row = await core.db.studySession.findUniqueOrThrow({ where: { id: session.id } });
  return { c: core, id: session.id, timer, heard, startedAt: row.startedAt.getTime(), focusMinutes: row.focusMinutes };
}

describe("FocusTimer on the bus", () => {
  it("break due once when the nudge is recorded, then break over once when the break has lasted its minutes", async () => {
    const { c, id, timer, heard, startedAt, focusMinutes } = await setUp();
    const due = new Date(startedAt + focusMinutes * MIN + 1_000);
    expect(await timer.recordDue(new Date(due.getTime() - 2_000))).toBe(0);
    expect(await timer.recordDue(due)).toBe(1);
    expect(await timer.recordDue(due)).toBe(0);
    const breakDue = heard.filter((e) => e.kind === "break-due");
    expect(breakDue).toHaveLength(1);
    expect(breakDue[0]).toMatchObject({ sessionId: id, detail: { n: 1, focusMinute: focusMinutes } });
    const breakMinutes = breakDue[0]!.detail!.breakMinutes as number;
    expect(breakMinutes).toBeGreaterThan(0);

    await timer.apply({ action: "break" }, due);
    await timer.recordDue(new Date(due.getTime() + breakMinutes * MIN - 1_000));
    expect(heard.filter((e) => e.kind === "break-over")).toEqual([]);
    await timer.recordDue(new Date(due.getTime() + breakMinutes * MIN));
    await timer.recordDue(new Date(due.getTime() + breakMinutes * MIN + 5_000));
    expect(heard.filter((e) => e.kind === "break-over")).toMatchObject([{ sessionId: id, detail: { n: 1, breakMinutes } }]);
    expect((await c.db.studySession.findUniqueOrThrow({ where: { id } })).pausedAt).not.toBeNull();
  });

  it("a pause of the learner's own (no break nudge answered) is never a break that ends", async () => {
    const { timer, heard, startedAt } = await setUp();
    const at = new Date(startedAt + 2 * MIN);
    await timer.apply({ action: "pause" }, at);
    await timer.recordDue(new Date(at.getTime() + 120 * MIN));
    expect(heard.map((e) => e.kind)).toEqual(["paused"]);
  });

  it("says nothing for another server's session", async () => {
    const { c, id, timer, heard, startedAt, focusMinutes } = await setUp();
    await c.db.studySession.update({ where: { id }, data: { ownerInstance: "elsewhere" } });
    expect(await timer.recordDue(new Date(startedAt + focusMinutes * MIN + 1_000))).toBe(0);
    expect(heard).toEqual([]);
  });
});
