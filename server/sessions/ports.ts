// The narrow view of sessions the study loop needs (it never imports the session service).
import type { SessionStateView, SessionView } from "./session-view.ts";
import type { Verdict } from "./verdict.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { HistoryAggregates } from "./history-aggregates.ts";

/** The study loop's writes to study_sessions, made by the session store (its only writer). */
export interface StudySessionWrites {
  /** A conditional timer write: only if the row is still open and as it was read; false when it raced. */
  updateTimer(
    expected: { id: string; pausedAt: Date | null; nudgesShown: string },
    data: { pausedAt?: Date | null; pausedMs?: number; nudgesShown?: string },
  ): Promise<boolean>;
  /**
   * Moves the session's win and struggle counts as one of its marks goes from `before` to `after`
   * (null: no mark; a new mark has no before, a mark taken back no after), inside the transaction that
   * writes the mark.
   */
  countMark(tx: Prisma.TransactionClient, id: string, before: string | null, after: string | null): Promise<void>;
}

export interface SessionReader {
  /** This server's instance id: the study loop records nudges only for sessions it runs. */
  readonly instanceId: string;
  state(): Promise<SessionStateView>;
  session(id: string): Promise<{ view: SessionView; verdict: Verdict | null; transcript: string | null } | null>;
  /** Reconciles every open row (the history never shows a dead session as live). */
  reconcileOpen(): Promise<unknown>;
  history(filter: { topic?: string; ids?: readonly string[]; take?: number }): Promise<SessionView[]>;
  /** The charts' figures (focus per day, marks per topic), kept up to date instead of counted per read. */
  historyAggregates(now: Date): Promise<HistoryAggregates>;
  readonly writes: StudySessionWrites;
}
