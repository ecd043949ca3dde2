// The focus timer, kept by the server: what is stored on the session row (start, pause, paused
// total, the nudges shown) and what any device reads from it at a given moment. Pure: the browser
// runs the same code against the server's clock, so every device shows the same time.
import { z } from "zod";
import type { BreakSchedule } from "./focus-plan.ts";
import { scheduleOf } from "./focus-plan.ts";

/** One minute of a focus plan, in ms. Tests shorten it (STUDYLOOP_TIMER_MINUTE_SECONDS). */
export const MINUTE_MS = 60_000;

export const NUDGE_ANSWERS = ["break", "continue", "missed"] as const;
export type NudgeAnswer = (typeof NUDGE_ANSWERS)[number];

/** A break nudge as recorded on the row (study_sessions.nudges_shown, a JSON array). */
export const NudgeRecordSchema = z.object({
  n: z.number().int().positive(),
  /** Minutes of focus at which it was due. */
  focusMinute: z.number(),
  long: z.boolean(),
  breakMinutes: z.number(),
  shownAt: z.string(),
  answeredAt: z.string().nullable(),
  /** break: the learner paused for it; continue: kept going; missed: a later nudge replaced it. */
  answer: z.enum(NUDGE_ANSWERS).nullable(),
});
export type NudgeRecord = z.infer<typeof NudgeRecordSchema>;
// Made once: building a zod schema costs more than parsing a short list with it, and every state
// read parses the live session's list.
const NudgeListSchema = z.array(NudgeRecordSchema);

/** Reads the stored list; anything unreadable counts as no nudges rather than breaking the page. */
export function parseNudges(text: string | null | undefined): NudgeRecord[] {
  if (!text || text === "[]") return [];
  try {
    const parsed = NudgeListSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** What a page needs to run the timer: plain JSON, part of every session view. */
export interface TimerState {
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly pausedAt: string | null;
  /** Paused time already closed (the open pause, if any, is counted from pausedAt). */
  readonly pausedMs: number;
  readonly schedule: BreakSchedule;
  readonly minuteMs: number;
  readonly nudges: readonly NudgeRecord[];
}

export interface TimerRow {
  readonly startedAt: Date;
  readonly endedAt: Date | null;
  readonly pausedAt: Date | null;
  readonly pausedMs: number;
  readonly focusPlan: string;
  readonly focusMinutes: number;
  readonly breakMinutes: number;
  readonly nudgesShown: string;
}

export function timerStateOf(row: TimerRow, minuteMs: number = MINUTE_MS): TimerState {
  return {
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
    pausedAt: row.pausedAt ? row.pausedAt.toISOString() : null,
    pausedMs: row.pausedMs,
    schedule: scheduleOf(row),
    minuteMs,
    nudges: parseNudges(row.nudgesShown),
  };
}

export interface NudgeSpec {
  readonly n: number;
  readonly focusMinute: number;
  readonly atFocusMs: number;
  readonly long: boolean;
  readonly breakMinutes: number;
}

/** The n-th break nudge (1-based) of a schedule. */
export function nudgeSpec(schedule: BreakSchedule, n: number, minuteMs: number = MINUTE_MS): NudgeSpec {
  const long = schedule.longBreakEvery > 0 && n % schedule.longBreakEvery === 0;
  const focusMinute = n * schedule.focusMinutes;
  return {
    n,
    focusMinute,
    atFocusMs: focusMinute * minuteMs,
    long,
    breakMinutes: long ? schedule.longBreakMinutes : schedule.breakMinutes,
  };
}

export interface TimerReading {
  /** Time spent in focus: since the start, minus every pause, up to now or the end. */
  readonly focusMs: number;
  /** Wall time since the start (up to the end). */
  readonly elapsedMs: number;
  readonly paused: boolean;
  /** How long the current pause has lasted. */
  readonly pausedForMs: number;
  /** The next break nudge and the focus time left until it; null once the session has ended. */
  readonly next: (NudgeSpec & { readonly inMs: number }) | null;
  /** Nudges whose time has come but which are not recorded yet (none while paused or ended). */
  readonly due: readonly NudgeSpec[];
  /** The nudge to show now: the latest recorded one, while unanswered. */
  readonly active: NudgeRecord | null;
}

export function readTimer(t: TimerState, nowMs: number): TimerReading {
  const started = Date.parse(t.startedAt);
  const endedMs = t.endedAt ? Date.parse(t.endedAt) : null;
  const until = Math.max(started, endedMs ?? nowMs);
  const pausedAtMs = t.pausedAt ? Date.parse(t.pausedAt) : null;
  const openPauseMs = pausedAtMs === null ? 0 : Math.max(0, until - pausedAtMs);
  const elapsedMs = until - started;
  // Focus stops at the pause itself, even for a reader whose clock is a little behind the one that paused.
  const focusEnd = pausedAtMs === null ? until : endedMs === null ? pausedAtMs : Math.min(endedMs, pausedAtMs);
  const focusMs = Math.max(0, focusEnd - started - t.pausedMs);
  const paused = pausedAtMs !== null && endedMs === null;

  const lastRecorded = t.nudges.reduce((max, r) => Math.max(max, r.n), 0);
  const reached = t.schedule.focusMinutes > 0 ? Math.floor(focusMs / (t.schedule.focusMinutes * t.minuteMs)) : 0;
  const due: NudgeSpec[] = [];
  if (!paused && endedMs === null) {
    for (let n = lastRecorded + 1; n <= reached; n++) due.push(nudgeSpec(t.schedule, n, t.minuteMs));
  }
  const nextSpec =
    endedMs === null && t.schedule.focusMinutes > 0 ? nudgeSpec(t.schedule, Math.max(reached, lastRecorded) + 1, t.minuteMs) : null;
  const latest = t.nudges.reduce<NudgeRecord | null>((best, r) => (best === null || r.n > best.n ? r : best), null);
  return {
    focusMs,
    elapsedMs,
    paused,
    pausedForMs: paused ? openPauseMs : 0,
    next: nextSpec ? { ...nextSpec, inMs: Math.max(0, nextSpec.atFocusMs - focusMs) } : null,
    due,
    active: endedMs === null && latest && latest.answer === null ? latest : null,
  };
}

/** Records nudges that came due; an older unanswered nudge is marked missed (only the newest shows). */
export function recordNudges(records: readonly NudgeRecord[], due: readonly NudgeSpec[], now: Date): NudgeRecord[] {
  if (due.length === 0) return [...records];
  const at = now.toISOString();
  const newest = Math.max(...due.map((d) => d.n));
  const closed = records.map((r) => (r.answer === null ? { ...r, answer: "missed" as const, answeredAt: at } : r));
  const added = due.map<NudgeRecord>((d) => ({
    n: d.n,
    focusMinute: d.focusMinute,
    long: d.long,
    breakMinutes: d.breakMinutes,
    shownAt: at,
    answeredAt: d.n === newest ? null : at,
    answer: d.n === newest ? null : "missed",
  }));
  return [...closed, ...added];
}

/** Answers every unanswered nudge (normally one). Returns null when there was none to answer. */
export function answerNudges(
  records: readonly NudgeRecord[],
  answer: Exclude<NudgeAnswer, "missed">,
  now: Date,
  n?: number,
): NudgeRecord[] | null {
  let changed = false;
  const next = records.map((r) => {
    if (r.answer !== null || (n !== undefined && r.n !== n)) return r;
    changed = true;
    return { ...r, answer, answeredAt: now.toISOString() };
  });
  return changed ? next : null;
}

/** "4:05", "12:34", "1:02:03": minutes and seconds, hours only when there are some. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Whole minutes for sentences: "less than a minute", "1 minute", "25 minutes". */
export function formatMinutes(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE_MS);
  if (minutes === 0) return "less than a minute";
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** The gentle sentence a nudge shows. */
export function nudgeMessage(nudge: Pick<NudgeSpec, "focusMinute" | "long" | "breakMinutes">): string {
  const kind = nudge.long ? "a longer break" : "a short break";
  return `You have focused for ${nudge.focusMinute} minutes. Time for ${kind}: ${nudge.breakMinutes} minutes away from the screen, then come back fresh.`;
}
