// The dashboard's charts as numbers: focus time per day (the 12-week calendar heatmap), the streak,
// and wins and struggles per topic. Pure; days are the server's local calendar days.

export const HEATMAP_WEEKS = 12;
/** Heatmap shades by minutes of focus in a day: 1 (under 15), 2 (under 30), 3 (under 60), 4. */
const LEVEL_MINUTES = [15, 30, 60] as const;

export interface StudyInterval {
  readonly startedAt: Date;
  /** The end, or now for a live session. */
  readonly endedAt: Date;
  /** Focus time within the interval (paused time removed). */
  readonly focusMs: number;
}

/** "2026-03-02" in local time. */
export function dayKey(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/**
 * Focus ms per day. A session that crosses midnight is shared between the days by wall time; its
 * pauses are spread evenly (where in the session they fell is not stored).
 */
export function focusByDay(intervals: readonly StudyInterval[]): Map<string, number> {
  const byDay = new Map<string, number>();
  for (const s of intervals) {
    const start = s.startedAt.getTime();
    const end = Math.max(start, s.endedAt.getTime());
    const focus = Math.max(0, s.focusMs);
    if (focus === 0) continue;
    if (end === start) {
      add(byDay, dayKey(s.startedAt), focus);
      continue;
    }
    const ratio = Math.min(1, focus / (end - start));
    for (let day = startOfDay(s.startedAt); day.getTime() < end; day = addDays(day, 1)) {
      const from = Math.max(start, day.getTime());
      const to = Math.min(end, addDays(day, 1).getTime());
      if (to > from) add(byDay, dayKey(day), (to - from) * ratio);
    }
  }
  return byDay;
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

export interface HeatmapCell {
  readonly date: string;
  readonly focusMs: number;
  /** 0 (none) to 4. */
  readonly level: number;
  readonly today: boolean;
  readonly future: boolean;
}

export interface Heatmap {
  /** Columns of 7 days, Monday first, oldest week first; the last column holds today. */
  readonly weeks: readonly (readonly HeatmapCell[])[];
  readonly totalMs: number;
  readonly activeDays: number;
}

export function level(focusMs: number): number {
  if (focusMs <= 0) return 0;
  const minutes = focusMs / 60_000;
  const index = LEVEL_MINUTES.findIndex((limit) => minutes < limit);
  return index === -1 ? LEVEL_MINUTES.length + 1 : index + 1;
}

/** The heatmap's first day: the Monday `weeks - 1` weeks before this week's. */
export function heatmapStart(today: Date, weeks: number = HEATMAP_WEEKS): Date {
  const todayStart = startOfDay(today);
  const mondayOffset = (todayStart.getDay() + 6) % 7; // days since Monday
  return addDays(todayStart, -mondayOffset - (weeks - 1) * 7);
}

export function heatmap(byDay: ReadonlyMap<string, number>, today: Date, weeks: number = HEATMAP_WEEKS): Heatmap {
  const todayStart = startOfDay(today);
  const first = heatmapStart(today, weeks);
  const todayKey = dayKey(todayStart);
  const columns: HeatmapCell[][] = [];
  let totalMs = 0;
  let activeDays = 0;
  for (let w = 0; w < weeks; w++) {
    const column: HeatmapCell[] = [];
    for (let d = 0; d < 7; d++) {
      const date = addDays(first, w * 7 + d);
      const key = dayKey(date);
      const future = date.getTime() > todayStart.getTime();
      const focusMs = future ? 0 : (byDay.get(key) ?? 0);
      totalMs += focusMs;
      if (focusMs > 0) activeDays++;
      column.push({ date: key, focusMs, level: level(focusMs), today: key === todayKey, future });
    }
    columns.push(column);
  }
  return { weeks: columns, totalMs, activeDays };
}

export interface Streak {
  /** Days in a row with some focus, ending today (or yesterday, while today is still open). */
  readonly current: number;
  readonly longest: number;
  readonly studiedToday: boolean;
}

export function streak(byDay: ReadonlyMap<string, number>, today: Date): Streak {
  // Calendar days as numbers (one a day, whatever the clocks do), read once: a long history has
  // thousands of days, and a Date per day was most of the dashboard's chart time.
  const days: number[] = [];
  for (const [key, ms] of byDay) if (ms > 0) days.push(dayNumber(key));
  return streakOfRuns(mergeRuns(days.map((day) => ({ first: day, last: day }))), today);
}

/** Consecutive studied days, as calendar-day numbers (dayNumber), first to last inclusive. */
export interface DayRun {
  readonly first: number;
  readonly last: number;
}

/** Runs (and single days) merged where they overlap or touch: sorted, none adjacent to the next. */
export function mergeRuns(runs: readonly DayRun[]): DayRun[] {
  const sorted = [...runs].sort((a, b) => a.first - b.first);
  const merged: { first: number; last: number }[] = [];
  for (const run of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && run.first <= previous.last + 1) previous.last = Math.max(previous.last, run.last);
    else merged.push({ first: run.first, last: run.last });
  }
  return merged;
}

/**
 * The runs the streak needs, from what the database returned (the runs ending on `since` or later,
 * and the longest) and the open sessions' studied days (all on `since + 1` or later): those merged
 * into the recent runs, and the longest stored run.
 */
export function withOpenDays(
  stored: readonly DayRun[],
  since: number,
  openDays: readonly number[],
): { recentRuns: DayRun[]; longestRun: number } {
  const recent = stored.filter((r) => r.last >= since);
  const recentRuns = mergeRuns([...recent, ...openDays.map((day) => ({ first: day, last: day }))]);
  let longestRun = 0;
  for (const r of stored) longestRun = Math.max(longestRun, r.last - r.first + 1);
  return { recentRuns, longestRun };
}

/**
 * The streak from runs of studied days: `runs` must hold every run that reaches yesterday or later
 * (merged, mergeRuns); `longestElsewhere` is the longest run of the days not in them (the database
 * counts it, so the dashboard need not read every studied day: history-aggregates.ts).
 */
export function streakOfRuns(runs: readonly DayRun[], today: Date, longestElsewhere = 0): Streak {
  const todayNumber = dayNumber(dayKey(today));
  const holding = (day: number) => runs.find((r) => r.first <= day && day <= r.last);
  const studiedToday = holding(todayNumber) !== undefined;
  const from = studiedToday ? todayNumber : todayNumber - 1;
  const run = holding(from);
  const current = run ? from - run.first + 1 : 0;
  let longest = Math.max(longestElsewhere, current);
  for (const r of runs) longest = Math.max(longest, r.last - r.first + 1);
  return { current, longest, studiedToday };
}

/** "2026-03-02" as a count of calendar days: consecutive dates are consecutive numbers. */
export function dayNumber(key: string): number {
  const [y, m, d] = key.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

export interface TopicTally {
  readonly topic: string;
  readonly wins: number;
  readonly struggles: number;
  readonly learning: number;
  readonly insights: number;
}

/** Marks of one exact topic, counted (server/sessions/history-aggregates.ts keeps them in the database). */
export interface TopicCount {
  readonly topic: string;
  /** The order of the topic's oldest mark: a group of topics is named after its oldest one. */
  readonly firstMark: number;
  readonly wins: number;
  readonly struggles: number;
  readonly learning: number;
  readonly insights: number;
}

/** Marks counted per topic (topics compared without case or surrounding space), busiest first. */
export function topicTallies(marks: readonly { topic: string; status: string }[], limit = 10): TopicTally[] {
  return tallyTopics(
    marks.map((m, i) => ({
      topic: m.topic,
      firstMark: i,
      wins: m.status === "win" ? 1 : 0,
      struggles: m.status === "struggling" ? 1 : 0,
      learning: m.status === "learning" ? 1 : 0,
      insights: m.status === "insight" ? 1 : 0,
    })),
    limit,
  );
}

/** topicTallies from counts per exact topic: the same groups, names and order. */
export function tallyTopics(counts: readonly TopicCount[], limit = 10): TopicTally[] {
  const byKey = new Map<string, { topic: string; first: number; wins: number; struggles: number; learning: number; insights: number }>();
  for (const c of counts) {
    const topic = c.topic.trim();
    const key = topic.toLowerCase();
    const t = byKey.get(key) ?? { topic, first: c.firstMark, wins: 0, struggles: 0, learning: 0, insights: 0 };
    if (c.firstMark < t.first) Object.assign(t, { topic, first: c.firstMark });
    t.wins += c.wins;
    t.struggles += c.struggles;
    t.learning += c.learning;
    t.insights += c.insights;
    byKey.set(key, t);
  }
  return [...byKey.values()]
    .filter((t) => t.wins + t.struggles > 0)
    .sort((a, b) => b.wins + b.struggles - (a.wins + a.struggles) || a.topic.localeCompare(b.topic))
    .slice(0, limit)
    .map(({ topic, wins, struggles, learning, insights }) => ({ topic, wins, struggles, learning, insights }));
}
