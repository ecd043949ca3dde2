import { describe, expect, it } from "vitest";
import { buildSummary, parseSummary } from "./summary.ts";

const MIN = 60_000;
const start = new Date("2026-03-02T09:00:00Z");
const after = (minutes: number) => new Date(start.getTime() + minutes * MIN);

describe("buildSummary", () => {
  it("counts duration and focus, wins, struggles, parked and what is left for next time", () => {
    const summary = buildSummary({
      startedAt: start,
      endedAt: after(50),
      pausedMs: 10 * MIN,
      marks: [
        { topic: "closures", status: "struggling", note: null },
        { topic: "closures", status: "win", note: "got it" },
        { topic: "recursion", status: "struggling", note: null },
        { topic: "recursion", status: "struggling", note: null },
        { topic: "scope", status: "insight", note: null },
        { topic: "scope", status: "learning", note: null },
      ],
      parked: [
        { text: "what is a monad?", status: "pending" },
        { text: "read about TCO", status: "carried" },
        { text: "typo in notes", status: "resolved" },
      ],
    });
    expect(summary).toEqual({
      durationMinutes: 50,
      focusMinutes: 40,
      wins: ["closures"],
      struggles: ["recursion"],
      insights: ["scope"],
      parked: ["what is a monad?", "read about TCO", "typo in notes"],
      forNextSession: ["Revisit recursion", "what is a monad?", "read about TCO"],
    });
  });

  it.each([
    ["no pause", 0, null, 30],
    ["closed pauses", 5 * MIN, null, 25],
    ["a pause still open at the end", 5 * MIN, after(20), 15],
    ["more pause than time (clock trouble)", 60 * MIN, null, 0],
  ] as const)("focus time with %s", (_name, pausedMs, pausedAt, focus) => {
    const s = buildSummary({ startedAt: start, endedAt: after(30), pausedMs, pausedAt, marks: [], parked: [] });
    expect(s.focusMinutes).toBe(focus);
    expect(s.durationMinutes).toBe(30);
  });

  it("round-trips through the stored text, and refuses what is not a summary", () => {
    const s = buildSummary({ startedAt: start, endedAt: after(1), pausedMs: 0, marks: [], parked: [] });
    expect(parseSummary(JSON.stringify(s))).toEqual(s);
    expect(parseSummary(null)).toBeNull();
    expect(parseSummary("{")).toBeNull();
    expect(parseSummary('{"wins": 3}')).toBeNull();
  });
});
