import { describe, expect, it } from "vitest";
import type { NudgeRecord, TimerState } from "../../common/study/timer.ts";
import { breakOver } from "./break-over.ts";

const MIN = 60_000;
const T0 = Date.parse("2026-12-01T10:00:00.000Z");
const at = (min: number) => new Date(T0 + min * MIN).toISOString();
const nudge = (n: number, answer: NudgeRecord["answer"], answeredMin: number | null, breakMinutes = 5): NudgeRecord => ({
  n,
  focusMinute: 25 * n,
  long: false,
  breakMinutes,
  shownAt: at(25 * n),
  answeredAt: answeredMin === null ? null : at(answeredMin),
  answer,
});
const base: TimerState = {
  startedAt: at(0),
  endedAt: null,
  pausedAt: null,
  pausedMs: 0,
  schedule: { focusMinutes: 25, breakMinutes: 5, longBreakMinutes: 15, longBreakEvery: 4 },
  minuteMs: MIN,
  nudges: [],
};

describe("breakOver", () => {
  const table: [string, TimerState, number, number | null][] = [
    ["not paused", { ...base, nudges: [nudge(1, "break", 25)] }, 40, null],
    ["a break taken 4 minutes ago (of 5)", { ...base, pausedAt: at(26), nudges: [nudge(1, "break", 26)] }, 30, null],
    ["a break taken 5 minutes ago", { ...base, pausedAt: at(26), nudges: [nudge(1, "break", 26)] }, 31, 1],
    ["a long break counts its own minutes", { ...base, pausedAt: at(101), nudges: [nudge(4, "break", 101, 15)] }, 110, null],
    ["a long break over", { ...base, pausedAt: at(101), nudges: [nudge(4, "break", 101, 15)] }, 116, 4],
    ["answered 'break' while already paused", { ...base, pausedAt: at(24), nudges: [nudge(1, "break", 26)] }, 30, 1],
    ["continued, then paused on their own: no break", { ...base, pausedAt: at(30), nudges: [nudge(1, "continue", 26)] }, 60, null],
    [
      "back from the break, later paused on their own",
      { ...base, pausedAt: at(45), pausedMs: 5 * MIN, nudges: [nudge(1, "break", 26)] },
      60,
      null,
    ],
    [
      "the latest break counts, not an older one",
      { ...base, pausedAt: at(56), pausedMs: 5 * MIN, nudges: [nudge(1, "break", 26), nudge(2, "break", 56)] },
      61,
      2,
    ],
    ["an ended session has no break", { ...base, pausedAt: at(26), endedAt: at(28), nudges: [nudge(1, "break", 26)] }, 40, null],
  ];
  it.each(table)("%s", (_name, t, nowMin, n) => expect(breakOver(t, T0 + nowMin * MIN)?.n ?? null).toBe(n));
});
