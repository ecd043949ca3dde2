// When a break the learner took for a nudge has run its length: the "break over" study event. Pure
// (table-tested beside it); the focus timer asks it every second for the paused sessions it runs.
import { readTimer, type NudgeRecord, type TimerState } from "../../common/study/timer.ts";

/**
 * The nudge whose break is over now, or null: the timer is paused since the learner answered the
 * latest "break" nudge, or answered it while paused (a pause of their own, after resuming from it, is
 * not a break), and the pause has lasted that nudge's break minutes.
 */
export function breakOver(t: TimerState, nowMs: number): NudgeRecord | null {
  if (!t.pausedAt) return null;
  const reading = readTimer(t, nowMs);
  if (!reading.paused) return null;
  const taken = t.nudges.filter((r) => r.answer === "break" && r.answeredAt !== null);
  const latest = taken.reduce<NudgeRecord | null>((best, r) => (best === null || r.n > best.n ? r : best), null);
  if (!latest) return null;
  // The answer began this pause (the same write) or came during it; a pause begun later is the learner's own.
  if (Date.parse(t.pausedAt) > Date.parse(latest.answeredAt!)) return null;
  return reading.pausedForMs >= latest.breakMinutes * t.minuteMs ? latest : null;
}
