import { describe, expect, it } from "vitest";
import { dayKey, dayNumber, focusByDay, heatmap, level, mergeRuns, streak, streakOfRuns, topicTallies, withOpenDays } from "./stats.ts";

const MIN = 60_000;
// Local times: the heatmap's days are the server's calendar days.
const local = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);

describe("focusByDay", () => {
  it("adds sessions of the same day", () => {
    const map = focusByDay([
      { startedAt: local(2026, 3, 2, 9), endedAt: local(2026, 3, 2, 9, 30), focusMs: 25 * MIN },
      { startedAt: local(2026, 3, 2, 18), endedAt: local(2026, 3, 2, 18, 10), focusMs: 10 * MIN },
    ]);
    expect([...map]).toEqual([["2026-03-02", 35 * MIN]]);
  });

  it("shares a session across midnight by wall time, pauses spread evenly", () => {
    const map = focusByDay([{ startedAt: local(2026, 3, 2, 23, 30), endedAt: local(2026, 3, 3, 0, 30), focusMs: 30 * MIN }]);
    expect(map.get("2026-03-02")).toBe(15 * MIN);
    expect(map.get("2026-03-03")).toBe(15 * MIN);
  });

  it("ignores sessions without focus time and keeps very short ones", () => {
    const map = focusByDay([
      { startedAt: local(2026, 3, 2), endedAt: local(2026, 3, 2), focusMs: 0 },
      { startedAt: local(2026, 3, 4), endedAt: new Date(local(2026, 3, 4).getTime() + 20_000), focusMs: 20_000 },
    ]);
    expect([...map]).toEqual([["2026-03-04", 20_000]]);
  });
});

describe("heatmap", () => {
  it.each([
    [0, 0],
    [1, 1],
    [14 * MIN, 1],
    [15 * MIN, 2],
    [45 * MIN, 3],
    [60 * MIN, 4],
    [300 * MIN, 4],
  ])("%i ms of focus is level %i", (ms, expected) => expect(level(ms)).toBe(expected));

  it("has 12 columns of 7 days, Monday first, today in the last column, nothing in the future", () => {
    const today = local(2026, 3, 4); // a Wednesday
    const map = heatmap(
      new Map([
        ["2026-03-04", 20 * MIN],
        ["2026-03-02", 5 * MIN],
        ["2025-01-01", MIN],
      ]),
      today,
    );
    expect(map.weeks).toHaveLength(12);
    expect(map.weeks.every((w) => w.length === 7)).toBe(true);
    const last = map.weeks[11]!;
    expect(last[0]!.date).toBe("2026-03-02");
    expect(last[2]).toMatchObject({ date: "2026-03-04", today: true, focusMs: 20 * MIN, level: 2, future: false });
    expect(last[3]).toMatchObject({ date: "2026-03-05", future: true, level: 0 });
    expect(map.weeks[0]![0]!.date).toBe("2025-12-15");
    expect(map.totalMs).toBe(25 * MIN);
    expect(map.activeDays).toBe(2);
  });

  it("uses local days", () => {
    expect(dayKey(local(2026, 12, 31, 23, 59))).toBe("2026-12-31");
  });
});

describe("streak", () => {
  const days = (...keys: string[]) => new Map(keys.map((k) => [k, 10 * MIN]));
  it.each([
    ["no study at all", days(), 0, 0, false],
    ["today only", days("2026-03-04"), 1, 1, true],
    ["three days up to today", days("2026-03-02", "2026-03-03", "2026-03-04"), 3, 3, true],
    ["up to yesterday: still alive today", days("2026-03-02", "2026-03-03"), 2, 2, false],
    ["broken two days ago", days("2026-03-01", "2026-03-02"), 0, 2, false],
    ["longest in the past", days("2026-02-01", "2026-02-02", "2026-02-03", "2026-02-04", "2026-03-04"), 1, 4, true],
    ["across a month end", days("2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"), 6, 6, true],
  ] as const)("%s", (_name, map, current, longest, today) => {
    expect(streak(map, local(2026, 3, 4))).toEqual({ current, longest, studiedToday: today });
  });

  it("counts a years-long streak across leap days and clock changes", () => {
    const map = new Map<string, number>();
    for (let d = new Date(2020, 0, 1); d <= new Date(2026, 2, 4); d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1))
      if (dayKey(d) !== "2023-06-15") map.set(dayKey(d), 10 * MIN);
    // 2023-06-16 .. 2026-03-04 is the current run; 2020-01-01 .. 2023-06-14 the longest.
    const current = Math.round((Date.UTC(2026, 2, 4) - Date.UTC(2023, 5, 16)) / 86_400_000) + 1;
    const longest = Math.round((Date.UTC(2023, 5, 14) - Date.UTC(2020, 0, 1)) / 86_400_000) + 1;
    expect(streak(map, local(2026, 3, 4, 22))).toEqual({ current, longest, studiedToday: true });
  });

  it("does not count a day with zero minutes", () => {
    expect(streak(new Map([["2026-03-04", 0]]), local(2026, 3, 4)).current).toBe(0);
  });
});

describe("the streak from runs (what the database counts) and the open sessions' days", () => {
  /** Runs of a set of day numbers, as the database's gaps-and-islands query returns them. */
  const runsOf = (days: readonly number[]) => mergeRuns(days.map((d) => ({ first: d, last: d })));
  const key = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
  const today = local(2026, 3, 4, 15);
  const t = dayNumber(dayKey(today));

  it("merges runs that overlap or touch, and keeps the others apart", () => {
    expect(
      mergeRuns([
        { first: 5, last: 6 },
        { first: 1, last: 2 },
        { first: 3, last: 3 },
        { first: 8, last: 9 },
        { first: 9, last: 12 },
      ]),
    ).toEqual([
      { first: 1, last: 3 },
      { first: 5, last: 6 },
      { first: 8, last: 12 },
    ]);
  });

  it("equals the streak over every day, for many histories and open sessions", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      // Up to 60 days back, some studied; the open sessions' days near today (one may bridge a gap).
      const stored = [...Array(60).keys()].map((back) => t - back).filter(() => random() < 0.6);
      const open = [t, t - 1, t - 2, t - 3].filter(() => random() < 0.3);
      const since = Math.min(t - 1, ...open) - 1;
      const all = runsOf(stored);
      // What the query returns: the runs ending on `since` or later, and one longest.
      const longest = [...all].sort((a, b) => b.last - b.first - (a.last - a.first))[0];
      const returned = [...all.filter((r) => r.last >= since), ...(longest ? [longest] : [])];
      const { recentRuns, longestRun } = withOpenDays(returned, since, open);
      const expected = streak(new Map([...stored, ...open].map((d) => [key(d), 10 * MIN])), today);
      expect(streakOfRuns(recentRuns, today, longestRun)).toEqual(expected);
    }
  });
});

describe("topicTallies", () => {
  it("counts wins and struggles per topic, busiest first, ignoring case", () => {
    expect(
      topicTallies([
        { topic: "closures", status: "win" },
        { topic: "Closures ", status: "struggling" },
        { topic: "closures", status: "win" },
        { topic: "recursion", status: "struggling" },
        { topic: "generators", status: "learning" },
      ]),
    ).toEqual([
      { topic: "closures", wins: 2, struggles: 1, learning: 0, insights: 0 },
      { topic: "recursion", wins: 0, struggles: 1, learning: 0, insights: 0 },
    ]);
  });
});
