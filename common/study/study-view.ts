// Pure mappers from parked items and topic marks to what the API, the pages and the sockets show,
// and the timeline of one session (marks, nudges and parked items in the order they happened).
import type { ParkedItem, TopicMark } from "../../server/db/generated/client.ts";
import type { SessionView } from "../../server/sessions/session-view.ts";
import type { TimerState } from "./timer.ts";

export const PARKED_STATUSES = ["pending", "resolved", "dismissed", "carried"] as const;
export type ParkedStatus = (typeof PARKED_STATUSES)[number];
export const MARK_STATUSES = ["win", "struggling", "learning", "insight"] as const;
export type MarkStatus = (typeof MARK_STATUSES)[number];

export interface ParkedView {
  readonly id: string;
  readonly sessionId: string | null;
  /** The topic of the session it was parked in, when the caller knows it. */
  readonly sessionTopic: string | null;
  readonly text: string;
  readonly source: "learner" | "agent";
  readonly status: ParkedStatus;
  readonly createdAt: string;
  readonly resolvedAt: string | null;
  /** Set on an item carried over from an earlier session. */
  readonly carriedFromId: string | null;
}

export interface MarkView {
  readonly id: string;
  readonly sessionId: string;
  readonly topic: string;
  readonly status: MarkStatus;
  readonly note: string | null;
  readonly source: "learner" | "agent";
  readonly createdAt: string;
}

/** Everything the study page shows about the live session besides the agent itself. */
export interface StudyLiveView {
  readonly sessionId: string;
  readonly topic: string;
  readonly status: SessionView["status"];
  readonly timer: TimerState;
  /** While paused: until when the session is kept with no page open (SessionView.keptUntil). */
  readonly keptUntil: string | null;
  readonly winCount: number;
  readonly struggleCount: number;
  readonly marks: readonly MarkView[];
  readonly parked: readonly ParkedView[];
  /** Review cards on the session's topic due now: the warm-up beside the tutor follows it. */
  readonly dueCards: number;
}

export function toParkedView(item: ParkedItem, sessionTopic: string | null = null): ParkedView {
  return {
    id: item.id,
    sessionId: item.sessionId,
    sessionTopic,
    text: item.text,
    source: item.source === "agent" ? "agent" : "learner",
    status: (PARKED_STATUSES as readonly string[]).includes(item.status) ? (item.status as ParkedStatus) : "pending",
    createdAt: item.createdAt.toISOString(),
    resolvedAt: item.resolvedAt ? item.resolvedAt.toISOString() : null,
    carriedFromId: item.carriedFromId,
  };
}

export function toMarkView(mark: TopicMark): MarkView {
  return {
    id: mark.id,
    sessionId: mark.sessionId,
    topic: mark.topic,
    status: (MARK_STATUSES as readonly string[]).includes(mark.status) ? (mark.status as MarkStatus) : "learning",
    note: mark.note,
    source: mark.source === "agent" ? "agent" : "learner",
    createdAt: mark.createdAt.toISOString(),
  };
}

export function toStudyLiveView(
  session: SessionView,
  marks: readonly MarkView[],
  parked: readonly ParkedView[],
  dueCards = 0,
): StudyLiveView {
  return {
    sessionId: session.id,
    topic: session.topic,
    status: session.status,
    timer: session.timer,
    keptUntil: session.keptUntil,
    winCount: session.winCount,
    struggleCount: session.struggleCount,
    marks,
    parked,
    dueCards,
  };
}

export type TimelineEntry =
  | { readonly kind: "start"; readonly at: string; readonly offsetMs: number; readonly text: string }
  | { readonly kind: "end"; readonly at: string; readonly offsetMs: number; readonly text: string }
  | { readonly kind: "mark"; readonly at: string; readonly offsetMs: number; readonly mark: MarkView }
  | { readonly kind: "parked"; readonly at: string; readonly offsetMs: number; readonly item: ParkedView }
  | { readonly kind: "nudge"; readonly at: string; readonly offsetMs: number; readonly text: string };

const MARK_WORDS: Record<MarkStatus, string> = { win: "Win", struggling: "Struggling", learning: "Learning", insight: "Insight" };
export const markWord = (status: MarkStatus) => MARK_WORDS[status];

/** The session in order: start, marks, parked items and break nudges, end. */
export function buildTimeline(session: SessionView, marks: readonly MarkView[], parked: readonly ParkedView[]): TimelineEntry[] {
  const start = Date.parse(session.startedAt);
  const offset = (at: string) => Math.max(0, Date.parse(at) - start);
  const entries: TimelineEntry[] = [
    { kind: "start", at: session.startedAt, offsetMs: 0, text: `Started "${session.topic}" at energy ${session.energy}/10.` },
    ...marks.map((mark) => ({ kind: "mark" as const, at: mark.createdAt, offsetMs: offset(mark.createdAt), mark })),
    ...parked.map((item) => ({ kind: "parked" as const, at: item.createdAt, offsetMs: offset(item.createdAt), item })),
    ...session.timer.nudges.map((n) => ({
      kind: "nudge" as const,
      at: n.shownAt,
      offsetMs: offset(n.shownAt),
      text: `Break nudge after ${n.focusMinute} min of focus (${n.long ? "a longer" : "a short"} ${n.breakMinutes} min break): ${
        n.answer === "break"
          ? "took the break"
          : n.answer === "continue"
            ? "kept going"
            : n.answer === "missed"
              ? "not answered"
              : "not answered yet"
      }.`,
    })),
  ];
  if (session.endedAt)
    entries.push({
      kind: "end",
      at: session.endedAt,
      offsetMs: offset(session.endedAt),
      text: session.explanation ?? "The session ended.",
    });
  // Start first and end last whatever the clocks say; the rest by time, ties in the order above.
  const rank = (e: TimelineEntry) => (e.kind === "start" ? 0 : e.kind === "end" ? 2 : 1);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}
