import { describe, expect, it } from "vitest";
import { focusPlanFor, scheduleOf, energyBand, type FocusPlanKind } from "./focus-plan.ts";
import {
  answerNudges,
  formatClock,
  formatMinutes,
  nudgeSpec,
  parseNudges,
  readTimer,
  recordNudges,
  timerStateOf,
  type NudgeRecord,
  type TimerState,
} from "./timer.ts";

const MIN = 60_000;
const T0 = Date.parse("2026-03-02T09:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * MIN).toISOString();

function state(over: Partial<TimerState> & { plan?: [FocusPlanKind, number] } = {}): TimerState {
  const [kind, energy] = over.plan ?? ["energy", 3];
  const plan = focusPlanFor(kind, energy);
  return {
    startedAt: at(0),
    endedAt: null,
    pausedAt: null,
    pausedMs: 0,
    schedule: scheduleOf({ focusPlan: plan.kind, focusMinutes: plan.focusMinutes, breakMinutes: plan.breakMinutes }),
    minuteMs: MIN,
    nudges: [],
    ...over,
  };
}

function record(n: number, answer: NudgeRecord["answer"] = null): NudgeRecord {
  return {
    n,
    focusMinute: n * 15,
    long: n % 2 === 0,
    breakMinutes: n % 2 === 0 ? 10 : 5,
    shownAt: at(n * 15),
    answeredAt: answer ? at(n * 15 + 1) : null,
    answer,
  };
}

describe("focus plans", () => {
  it.each([
    [1, "low"],
    [3, "low"],
    [4, "medium"],
    [6, "medium"],
    [7, "high"],
    [10, "high"],
  ] as const)("energy %i is %s", (energy, band) => {
    expect(energyBand(energy)).toBe(band);
  });

  it.each([
    ["energy", 3, "Low-energy plan", [15, 30], 5, 10, 2],
    ["energy", 5, "Medium-energy plan", [20, 40], 5, 10, 2],
    ["energy", 8, "High-energy plan", [25, 50], 5, 10, 2],
    ["pomodoro", 3, "Pomodoro", [25, 50, 75, 100], 5, 15, 4],
  ] as const)("%s at energy %i: %s, nudges at %j", (kind, energy, label, nudges, shortBreak, longBreak, every) => {
    const plan = focusPlanFor(kind, energy);
    expect(plan.label).toBe(label);
    expect(plan.nudgeMinutes).toEqual(nudges);
    expect([plan.breakMinutes, plan.longBreakMinutes, plan.longBreakEvery]).toEqual([shortBreak, longBreak, every]);
    // The repeating rule gives the plan's own nudges first.
    const schedule = scheduleOf({ focusPlan: kind, focusMinutes: plan.focusMinutes, breakMinutes: plan.breakMinutes });
    expect(nudges.map((_, i) => nudgeSpec(schedule, i + 1).focusMinute)).toEqual(nudges);
    expect(nudgeSpec(schedule, every).long).toBe(true);
    expect(nudgeSpec(schedule, 1).long).toBe(false);
  });

  it("describes the low-energy plan in minutes", () => {
    expect(focusPlanFor("energy", 3).description).toBe(
      "A 5 min break nudge at 15 min of focus and a 10 min one at 30 min, then the same again.",
    );
  });
});

describe("readTimer", () => {
  // [case, state, now (min), focus (min), paused, next nudge n, next in (min), due n's]
  const cases: Array<[string, TimerState, number, number, boolean, number | null, number | null, number[]]> = [
    ["at the start", state(), 0, 0, false, 1, 15, []],
    ["ten minutes in", state(), 10, 10, false, 1, 5, []],
    ["the first nudge comes due", state(), 15, 15, false, 2, 15, [1]],
    ["the first nudge recorded", state({ nudges: [record(1)] }), 16, 16, false, 2, 14, []],
    ["two nudges due at once (none recorded)", state(), 31, 31, false, 3, 14, [1, 2]],
    ["paused 5 minutes ago", state({ pausedAt: at(10) }), 15, 10, true, 1, 5, []],
    ["paused time closed earlier", state({ pausedMs: 5 * MIN }), 20, 15, false, 2, 15, [1]],
    ["a nudge due while paused waits", state({ pausedAt: at(15) }), 20, 15, true, 2, 15, []],
    ["a clock a little behind the pause", state({ pausedAt: at(10) }), 9.5, 10, true, 1, 5, []],
    ["ended: frozen, nothing next", state({ endedAt: at(40), pausedMs: 10 * MIN }), 90, 30, false, null, null, []],
    ["ended while paused", state({ endedAt: at(40), pausedAt: at(30) }), 90, 30, false, null, null, []],
    ["pomodoro, 26 minutes", state({ plan: ["pomodoro", 5] }), 26, 26, false, 2, 24, [1]],
    ["a clock behind the start", state(), -1, 0, false, 1, 15, []],
  ];

  it.each(cases)("%s", (_name, t, now, focus, paused, nextN, nextIn, due) => {
    const r = readTimer(t, T0 + now * MIN);
    expect(r.focusMs).toBe(focus * MIN);
    expect(r.paused).toBe(paused);
    expect(r.next?.n ?? null).toBe(nextN);
    expect(r.next ? r.next.inMs : null).toBe(nextIn === null ? null : nextIn * MIN);
    expect(r.due.map((d) => d.n)).toEqual(due);
  });

  it("measures the current pause", () => {
    expect(readTimer(state({ pausedAt: at(10) }), T0 + 13 * MIN).pausedForMs).toBe(3 * MIN);
    expect(readTimer(state(), T0 + 13 * MIN).pausedForMs).toBe(0);
  });

  it("shows the newest unanswered nudge only, and none after the end", () => {
    expect(readTimer(state({ nudges: [record(1)] }), T0 + 16 * MIN).active?.n).toBe(1);
    expect(readTimer(state({ nudges: [record(1, "continue")] }), T0 + 16 * MIN).active).toBeNull();
    expect(readTimer(state({ nudges: [record(1, "missed"), record(2)] }), T0 + 31 * MIN).active?.n).toBe(2);
    expect(readTimer(state({ nudges: [record(1)], endedAt: at(20) }), T0 + 21 * MIN).active).toBeNull();
  });

  it("honours a shortened minute (tests)", () => {
    const t = state({ minuteMs: 1000 });
    expect(readTimer(t, T0 + 15_000).due.map((d) => d.n)).toEqual([1]);
    expect(readTimer(t, T0 + 14_000).next?.inMs).toBe(1000);
  });
});

describe("recording and answering nudges", () => {
  const now = new Date(T0 + 31 * MIN);

  it("records each due nudge once; only the newest stays open", () => {
    const t = state();
    const due = readTimer(t, now.getTime()).due;
    const records = recordNudges([], due, now);
    expect(records.map((r) => [r.n, r.answer])).toEqual([
      [1, "missed"],
      [2, null],
    ]);
    const again = readTimer({ ...t, nudges: records }, now.getTime() + 1000);
    expect(again.due).toEqual([]);
    expect(again.active?.n).toBe(2);
  });

  it("marks an older open nudge missed when a new one comes", () => {
    const records = recordNudges([record(1)], [nudgeSpec(state().schedule, 2)], now);
    expect(records.map((r) => [r.n, r.answer])).toEqual([
      [1, "missed"],
      [2, null],
    ]);
  });

  it("answers the open nudge once", () => {
    const answered = answerNudges([record(1)], "continue", now)!;
    expect(answered[0]).toMatchObject({ answer: "continue", answeredAt: now.toISOString() });
    expect(answerNudges(answered, "break", now)).toBeNull();
    expect(answerNudges([record(1)], "break", now, 2)).toBeNull();
  });

  it("reads stored nudges leniently", () => {
    expect(parseNudges("[]")).toEqual([]);
    expect(parseNudges("[15, 30]")).toEqual([]);
    expect(parseNudges("not json")).toEqual([]);
    expect(parseNudges(JSON.stringify([record(1)]))).toEqual([record(1)]);
  });

  it("maps a stored row", () => {
    const t = timerStateOf({
      startedAt: new Date(T0),
      endedAt: null,
      pausedAt: new Date(T0 + MIN),
      pausedMs: 1234,
      focusPlan: "pomodoro",
      focusMinutes: 25,
      breakMinutes: 5,
      nudgesShown: "[]",
    });
    expect(t).toMatchObject({
      startedAt: at(0),
      pausedAt: at(1),
      pausedMs: 1234,
      minuteMs: MIN,
      schedule: { focusMinutes: 25, longBreakEvery: 4, longBreakMinutes: 15 },
    });
  });
});

describe("formatting", () => {
  it.each([
    [0, "0:00"],
    [999, "0:00"],
    [65_000, "1:05"],
    [12 * MIN + 34_000, "12:34"],
    [62 * MIN + 3_000, "1:02:03"],
    [-5, "0:00"],
  ])("formatClock(%i) is %s", (ms, text) => expect(formatClock(ms)).toBe(text));

  it.each([
    [30_000, "less than a minute"],
    [MIN, "1 minute"],
    [25 * MIN + 59_000, "25 minutes"],
  ])("formatMinutes(%i) is %s", (ms, text) => expect(formatMinutes(ms)).toBe(text));
});
