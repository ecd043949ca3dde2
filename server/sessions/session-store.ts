// Prisma reads and writes of study_sessions. Every write that ends a session is conditional, so two
// readers (or two servers) that both decide to end it cannot fight: the first one wins.
import type { Statement } from "better-sqlite3";
import type { Db, ReadConnection } from "../db/client.ts";
import type { StudySession } from "../db/generated/client.ts";
import { buildSummary } from "../study/summary.ts";
import { SESSION_ROW_SELECT, sessionRowFrom } from "./session-rows.ts";

/** Value of live_slot while a session is not ended: the unique index allows only one such row. */
export const LIVE_SLOT = 1;

/**
 * A row without its transcript: what every state read needs. The transcript of a long session is
 * up to a megabyte and reading it dominated GET /api/session/state (docs/performance.md); `byId`
 * still returns it. Whether there is one shows in `transcriptAt`, written with every transcript.
 */
export type SessionRow = Omit<StudySession, "transcript">;

export interface EndWrite {
  readonly reason: string;
  readonly endedAt: Date;
  readonly exitCode?: number | null;
  readonly detail?: string | null;
  readonly transcript?: string | null;
}

export class SessionStore {
  /** The two reads every state read makes, prepared once on the read connection (session-rows.ts). */
  private readonly openRows: Statement<[], unknown[]>;
  private readonly lastEndedRow: Statement<[], unknown[]>;

  constructor(
    private readonly db: Db,
    reads: ReadConnection,
  ) {
    this.openRows = reads.prepare<[], unknown[]>(`SELECT ${SESSION_ROW_SELECT} FROM study_sessions WHERE ended_at IS NULL ORDER BY started_at DESC`).raw();
    this.lastEndedRow = reads
      .prepare<[], unknown[]>(`SELECT ${SESSION_ROW_SELECT} FROM study_sessions WHERE ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT 1`)
      .raw();
  }

  /** Rows not yet ended (normally at most one: the live_slot index sees to that). */
  async open(): Promise<SessionRow[]> {
    return this.openRows.all().map(sessionRowFrom);
  }

  byId(id: string): Promise<StudySession | null> {
    return this.db.studySession.findUnique({ where: { id } });
  }

  async lastEnded(): Promise<SessionRow | null> {
    const values = this.lastEndedRow.get();
    return values ? sessionRowFrom(values) : null;
  }

  /**
   * Ends a row only if it is still open and, when `owner` is given, still owned by that owner.
   * Builds the summary from the marks and parked items written so far. Returns whether it ended it.
   */
  async end(row: SessionRow, write: EndWrite, owner?: Pick<StudySession, "ownerInstance" | "ownerPid" | "muxSession">): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const [marks, parked] = await Promise.all([
        tx.topicMark.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
        tx.parkedItem.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
      ]);
      const endedAt = write.endedAt < row.startedAt ? row.startedAt : write.endedAt;
      const summary = buildSummary({ startedAt: row.startedAt, endedAt, pausedMs: row.pausedMs, pausedAt: row.pausedAt, marks, parked });
      const result = await tx.studySession.updateMany({
        where: {
          id: row.id,
          endedAt: null,
          ...(owner ? { ownerInstance: owner.ownerInstance, ownerPid: owner.ownerPid, muxSession: owner.muxSession } : {}),
        },
        data: {
          status: "ended",
          endedAt,
          endReason: write.reason,
          exitCode: write.exitCode ?? null,
          endDetail: write.detail ?? null,
          liveSlot: null,
          summary: JSON.stringify(summary),
          ...(write.transcript ? { transcript: write.transcript, transcriptAt: endedAt } : {}),
        },
      });
      return result.count === 1;
    });
  }

  /** Refreshes the heartbeat; false when the row was ended (or taken) by someone else. */
  async heartbeat(id: string, instanceId: string, at: Date): Promise<boolean> {
    const result = await this.db.studySession.updateMany({
      where: { id, endedAt: null, ownerInstance: instanceId },
      data: { heartbeatAt: at },
    });
    return result.count === 1;
  }

  async checkpoint(id: string, transcript: string, at: Date): Promise<void> {
    await this.db.studySession.update({ where: { id }, data: { transcript, transcriptAt: at } });
  }
}
