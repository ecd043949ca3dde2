// The learner model of one topic, as the topic page shows it: retention from the reviews, recall
// chance now (FSRS), and wins and struggles week by week (the last TOPIC_WEEKS weeks: the table shows
// those, and reading every mark of a topic grew with the history). Pure: rows in, numbers out.
import { dayKey } from "../../common/study/stats.ts";
import { recallChance, type SchedulingState } from "./scheduling.ts";

export interface ReviewFact {
  readonly rating: number;
  readonly reviewedAt: Date;
  /** The card's state before this review (0 new, 1 learning, 2 review, 3 relearning). */
  readonly stateBefore: number;
}

export interface MarkFact {
  readonly status: string;
  readonly createdAt: Date;
}

/** The weeks the topic page's table shows, this one included. */
export const TOPIC_WEEKS = 52;

/** The marks of a topic: counted over all time, listed since the first week shown. */
export interface TopicMarks {
  readonly wins: number;
  readonly struggles: number;
  /** Wins and struggles since `weeksShownSince(now)`. */
  readonly recent: readonly MarkFact[];
}

export interface WeekRow {
  /** Monday of the week, YYYY-MM-DD (local time). */
  readonly week: string;
  readonly wins: number;
  readonly struggles: number;
  readonly reviews: number;
  /** Share of review-state answers that were not "again", 0..1; null with none that week. */
  readonly retention: number | null;
}

export interface TopicModel {
  readonly cards: number;
  readonly due: number;
  readonly reviews: number;
  /** Of answers to cards already learned (review state): the share recalled (not "again"). */
  readonly retention: number | null;
  /** FSRS's mean chance of recalling the topic's reviewed cards now, 0..1. */
  readonly recallNow: number | null;
  readonly wins: number;
  readonly struggles: number;
  /** Oldest first, only weeks with something in them, the last TOPIC_WEEKS weeks. */
  readonly weeks: readonly WeekRow[];
}

const REVIEW_STATE = 2;
const AGAIN = 1;

export function topicModel(cards: readonly SchedulingState[], reviews: readonly ReviewFact[], marks: TopicMarks, now: Date): TopicModel {
  const since = weeksShownSince(now).getTime();
  const chances = cards.map((c) => recallChance(c, now)).filter((c): c is number => c !== null);
  const weeks = new Map<string, { wins: number; struggles: number; reviews: number; recalled: number; matured: number }>();
  const week = (d: Date) => {
    const key = mondayOf(d);
    let row = weeks.get(key);
    if (!row) weeks.set(key, (row = { wins: 0, struggles: 0, reviews: 0, recalled: 0, matured: 0 }));
    return row;
  };
  let recalled = 0;
  let matured = 0;
  const unshown = { wins: 0, struggles: 0, reviews: 0, recalled: 0, matured: 0 };
  const weekOf = (d: Date) => (d.getTime() >= since ? week(d) : unshown);
  for (const r of reviews) {
    const row = weekOf(r.reviewedAt);
    row.reviews++;
    if (r.stateBefore === REVIEW_STATE) {
      row.matured++;
      matured++;
      if (r.rating !== AGAIN) {
        row.recalled++;
        recalled++;
      }
    }
  }
  for (const m of marks.recent) {
    if (m.createdAt.getTime() < since) continue;
    if (m.status === "win") week(m.createdAt).wins++;
    else if (m.status === "struggling") week(m.createdAt).struggles++;
  }
  return {
    cards: cards.length,
    due: cards.filter((c) => c.due.getTime() <= now.getTime()).length,
    reviews: reviews.length,
    retention: matured ? recalled / matured : null,
    recallNow: chances.length ? chances.reduce((a, b) => a + b, 0) / chances.length : null,
    wins: marks.wins,
    struggles: marks.struggles,
    weeks: [...weeks.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, w]) => ({
        week: key,
        wins: w.wins,
        struggles: w.struggles,
        reviews: w.reviews,
        retention: w.matured ? w.recalled / w.matured : null,
      })),
  };
}

/** The local midnight starting the oldest week the table shows (TOPIC_WEEKS weeks up to now's). */
export function weeksShownSince(now: Date): Date {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  day.setDate(day.getDate() - ((day.getDay() + 6) % 7) - (TOPIC_WEEKS - 1) * 7);
  return day;
}

/** The Monday starting the local week of `d`, as YYYY-MM-DD. */
export function mondayOf(d: Date): string {
  const day = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  day.setDate(day.getDate() - ((day.getDay() + 6) % 7));
  return dayKey(day);
}
