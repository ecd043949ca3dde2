// The one writer of study_sessions (and the reader of its hot paths). Every write that ends a
// session is conditional, so two readers (or two servers) that both decide to end it cannot fight:
// the first one wins. Every write goes through withDb: a held lock is retried, a fault leaves as
// DbUnavailable naming what could not be done, and nothing is half-written (one statement or one
// transaction each).
import { Prisma } from "../db/generated/client.ts";
import type { Db, ReadConnection } from "../db/client.ts";
import type { StudySession } from "../db/generated/client.ts";
import { withDb, type RetryOptions } from "../db/db-faults.ts";
import type { Provider } from "../db/database-target.ts";
import { providerOf } from "../db/provider-of.ts";
import { buildSummary } from "../study/summary.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { AcpEventLog } from "../transports/acp/acp-transport.ts";
import { sessionReads, type SessionReads } from "./session-reads.ts";
import type { StudySessionWrites } from "./ports.ts";
import { HistoryAggregateStore } from "./history-aggregates.ts";

/** How a session's win and struggle counts move when a mark goes from `before` to `after` (null: none). */
export function countDelta(before: string | null, after: string | null): { winCount: number; struggleCount: number } {
  const of = (status: string | null) => ({ winCount: status === "win" ? 1 : 0, struggleCount: status === "struggling" ? 1 : 0 });
  const [b, a] = [of(before), of(after)];
  return { winCount: a.winCount - b.winCount, struggleCount: a.struggleCount - b.struggleCount };
}

/** Value of live_slot while a session is not ended: the unique index allows only one such row. */
export const LIVE_SLOT = 1;

/** A claimed row's owner generation; each takeover by another host (ending it for its owner) adds one. */
export const FIRST_GENERATION = 1;

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
  /** The agent's last output lines (a start that failed, an agent that exited). */
  readonly lastLines?: readonly string[] | null;
  /**
   * Written by someone other than the row's owner (a reader ending a lapsed lease, an End whose owner
   * is unknown): the owner generation is bumped, so the old owner's late writes are refused.
   */
  readonly takeover?: boolean;
}

/** The fields of a new row that the starter decides. */
export type ClaimRow = Omit<Prisma.StudySessionCreateInput, "status" | "liveSlot" | "parkedItems" | "topicMarks" | "acpEvents">;

/** The owner a conditional write expects: the row as read, or this server with its generation. */
export type Owner = Pick<StudySession, "ownerInstance" | "ownerPid" | "muxSession" | "ownerGeneration">;

/** A server's fence on a row it runs: its instance and the generation it claimed. */
export interface Fence {
  readonly instanceId: string;
  readonly generation: number;
}

const fenced = (id: string, fence: Fence) => ({ id, ownerInstance: fence.instanceId, ownerGeneration: fence.generation });

export class SessionStore implements AcpEventLog, StudySessionWrites {
  private readonly provider: Provider;
  /** The reads every state read and the history list make (session-reads.ts: SQLite or PostgreSQL). */
  private readonly reads: SessionReads;
  /** The charts' aggregates: this store keeps the focus per day as it ends sessions. */
  readonly aggregates: HistoryAggregateStore;

  constructor(
    private readonly db: Db,
    /** SQLite's read-only connection; null on PostgreSQL. */
    reads: ReadConnection | null,
    /** Retry options for every write (tests pass a short deadline). */
    private readonly retry: RetryOptions = {},
  ) {
    // The clock and a few raw statements differ: known from the client itself, as every store does.
    this.provider = providerOf(db);
    this.reads = sessionReads(db, reads);
    this.aggregates = new HistoryAggregateStore(db, reads, this.reads);
  }

  // ---- reads ---------------------------------------------------------------------------------------

  /** Rows not yet ended (normally at most one: the live_slot index sees to that). */
  async open(): Promise<SessionRow[]> {
    return withDb("read the open session", () => this.reads.open(), { deadlineMs: 0 });
  }

  byId(id: string): Promise<StudySession | null> {
    return withDb("read the session", () => this.db.studySession.findUnique({ where: { id } }), { deadlineMs: 0 });
  }

  byTokenHash(tokenHash: string): Promise<StudySession | null> {
    return withDb("check the session token", () => this.db.studySession.findFirst({ where: { tokenHash } }), { deadlineMs: 0 });
  }

  async lastEnded(): Promise<SessionRow | null> {
    return withDb("read the last session", () => this.reads.lastEnded(), { deadlineMs: 0 });
  }

  /**
   * The history, newest first: by topic, or only these sessions (a search's matches,
   * server/recording/search-index.ts). A page of rows off the started_at indexes, without transcripts.
   */
  async history(filter: { topic?: string; ids?: readonly string[]; take?: number }): Promise<SessionRow[]> {
    return withDb("read the history", () => this.reads.history({ ...filter, take: filter.take ?? 100 }), { deadlineMs: 0 });
  }

  /**
   * The database's clock: the reference for every lease, so hosts with skewed clocks agree. On
   * SQLite the database is a file on this machine and its clock is this one.
   */
  async dbNow(): Promise<Date> {
    if (this.provider === "sqlite") return new Date();
    return withDb(
      "read the database's clock",
      async () => {
        // Epoch milliseconds: no time zone between the database and this process to get wrong.
        const rows = await this.db.$queryRawUnsafe<{ ms: number }[]>(`SELECT (EXTRACT(EPOCH FROM now()) * 1000)::float8 AS ms`);
        return new Date(Math.floor(Number(rows[0]!.ms)));
      },
      { deadlineMs: 0 },
    );
  }

  // ---- the lifecycle's writes: starting -> live -> ending -> ended -------------------------------

  /**
   * Claims the one live slot with a "starting" row. False when the database refused a second claim
   * (the unique live_slot index: another start won, even in another process).
   */
  async claim(data: ClaimRow): Promise<boolean> {
    return withDb(
      "start the session",
      async () => {
        try {
          await this.db.studySession.create({ data: { ...data, status: "starting", liveSlot: LIVE_SLOT } });
          return true;
        } catch (error) {
          if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return false;
          throw error;
        }
      },
      this.retry,
    );
  }

  /**
   * starting -> live, once the agent runs. With a fence (a server's row), only while this server
   * still owns it: a row taken over meanwhile is not revived.
   */
  async markLive(id: string, agentSessionId: string | null = null, fence?: Fence): Promise<StudySession> {
    const at = await this.dbNow();
    return withDb(
      "mark the session live",
      async () => {
        const result = await this.db.studySession.updateMany({
          where: fence ? { ...fenced(id, fence), endedAt: null } : { id },
          data: { status: "live", heartbeatAt: at, ...(agentSessionId ? { agentSessionId } : {}) },
        });
        const row = await this.db.studySession.findUnique({ where: { id } });
        if (result.count !== 1 || !row) throw new Error("the session was ended by another server while it started");
        return row;
      },
      this.retry,
    );
  }

  async markAttached(id: string): Promise<void> {
    await withDb(
      "note that the session was opened",
      () => this.db.studySession.updateMany({ where: { id, attachedOnce: false }, data: { attachedOnce: true } }),
      this.retry,
    );
  }

  /**
   * live -> ending, written before the agent is stopped: the pending reason waits in end_reason, so
   * a fault after this point is finished by a retry, the keeper, or the next start's verdict with
   * the same reason. False when the row is already ended (someone else ended it first).
   */
  async markEnding(
    id: string,
    pending: { reason: string; exitCode?: number | null; detail?: string | null },
    retry: RetryOptions = this.retry,
    fence?: Fence,
  ): Promise<boolean> {
    const result = await withDb(
      "end the session",
      () =>
        this.db.studySession.updateMany({
          where: { ...(fence ? fenced(id, fence) : { id }), endedAt: null },
          data: { status: "ending", endReason: pending.reason, exitCode: pending.exitCode ?? null, endDetail: pending.detail ?? null },
        }),
      retry,
    );
    return result.count === 1;
  }

  /**
   * Ends a row only if it is still open and, when `owner` is given, still owned by that owner.
   * Builds the summary from the marks and parked items written so far. Returns whether it ended it.
   */
  async end(row: SessionRow, write: EndWrite, owner?: Owner, retry: RetryOptions = this.retry): Promise<boolean> {
    return withDb(
      "end the session",
      () =>
        this.db.$transaction(async (tx) => {
          const [marks, parked] = await Promise.all([
            tx.topicMark.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
            tx.parkedItem.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
          ]);
          const endedAt = write.endedAt < row.startedAt ? row.startedAt : write.endedAt;
          const summaryAt = (at: Date) =>
            JSON.stringify(
              buildSummary({ startedAt: row.startedAt, endedAt: at, pausedMs: row.pausedMs, pausedAt: row.pausedAt, marks, parked }),
            );
          const result = await tx.studySession.updateMany({
            where: {
              id: row.id,
              endedAt: null,
              ...(owner
                ? {
                    ownerInstance: owner.ownerInstance,
                    ownerPid: owner.ownerPid,
                    muxSession: owner.muxSession,
                    ownerGeneration: owner.ownerGeneration,
                  }
                : {}),
            },
            data: {
              status: "ended",
              endedAt,
              endReason: write.reason,
              exitCode: write.exitCode ?? null,
              endDetail: write.detail ?? null,
              liveSlot: null,
              ...(write.takeover ? { ownerGeneration: { increment: 1 } } : {}),
              summary: summaryAt(endedAt),
              ...(write.lastLines && write.lastLines.length > 0 ? { endOutput: JSON.stringify(write.lastLines) } : {}),
              ...(write.transcript ? { transcript: write.transcript, transcriptAt: endedAt } : {}),
            },
          });
          if (result.count !== 1) return false;
          if (write.takeover) await this.endNoEarlierThanLastBeat(tx, row.id, endedAt, summaryAt, Boolean(write.transcript));
          await this.aggregates.sessionEnded(tx, row.id);
          return true;
        }),
      retry,
    );
  }

  /**
   * An orphan is ended at its last heartbeat as read; its owner may have written a later one before
   * this end (a tmux wrapper beating as tmux went). The row is this transaction's now (no heartbeat
   * of an ended row is taken, and none can commit past this write), so the end moves to that beat: no
   * study time is lost, and the end is never before the last moment it was seen alive.
   */
  private async endNoEarlierThanLastBeat(
    tx: Prisma.TransactionClient,
    id: string,
    endedAt: Date,
    summaryAt: (at: Date) => string,
    transcript: boolean,
  ): Promise<void> {
    const beat = (await tx.studySession.findUnique({ where: { id }, select: { heartbeatAt: true } }))?.heartbeatAt;
    if (!beat || beat <= endedAt) return;
    await tx.studySession.update({
      where: { id },
      data: { endedAt: beat, summary: summaryAt(beat), ...(transcript ? { transcriptAt: beat } : {}) },
    });
  }

  /**
   * Renews this server's lease on a row: heartbeat_at becomes the database's now. False when the row
   * was ended or taken over by someone else (the fence no longer matches).
   */
  async heartbeat(id: string, fence: Fence): Promise<boolean> {
    return withDb(
      "refresh the heartbeat",
      async () => {
        if (this.provider === "postgresql") {
          // One statement, stamped by the database's clock: no host's clock enters a lease.
          const count = await this.db.$executeRawUnsafe(
            `UPDATE "study_sessions" SET "heartbeat_at" = (now() AT TIME ZONE 'UTC')::timestamp(3)
              WHERE "id" = $1 AND "owner_instance" = $2 AND "owner_generation" = $3 AND "ended_at" IS NULL`,
            id,
            fence.instanceId,
            fence.generation,
          );
          return count === 1;
        }
        const result = await this.db.studySession.updateMany({
          where: { ...fenced(id, fence), endedAt: null },
          data: { heartbeatAt: new Date() },
        });
        return result.count === 1;
      },
      { deadlineMs: 0 },
    );
  }

  /**
   * End pressed on a host that does not run the session: written to the row for its owner, which
   * sees it on its next beat and ends the session as if End was pressed there. False when the row
   * is already ended.
   */
  async requestEnd(id: string, by: string): Promise<boolean> {
    const at = await this.dbNow();
    const result = await withDb(
      "ask for the session to end",
      () => this.db.studySession.updateMany({ where: { id, endedAt: null }, data: { endRequestedAt: at, endRequestedBy: by } }),
      this.retry,
    );
    return result.count === 1;
  }

  /** The tmux wrapper's heartbeat (`_tmux-run`): false when the row was ended by someone else. */
  async heartbeatTmux(id: string, at: Date): Promise<boolean> {
    const result = await withDb(
      "refresh the heartbeat",
      () => this.db.studySession.updateMany({ where: { id, endedAt: null }, data: { heartbeatAt: at } }),
      { deadlineMs: 0 },
    );
    return result.count === 1;
  }

  /**
   * Saves a transcript. With a fence (a server's own row) only while the row is still this server's
   * generation: after a takeover by another host, the old owner writes nothing over its end.
   */
  async checkpoint(id: string, transcript: string, at: Date, fence?: Fence): Promise<boolean> {
    const result = await withDb(
      "save the transcript",
      () => this.db.studySession.updateMany({ where: fence ? fenced(id, fence) : { id }, data: { transcript, transcriptAt: at } }),
      this.retry,
    );
    return result.count === 1;
  }

  // ---- the study loop's writes (ports.ts) --------------------------------------------------------

  async updateTimer(
    expected: { id: string; pausedAt: Date | null; nudgesShown: string },
    data: { pausedAt?: Date | null; pausedMs?: number; nudgesShown?: string },
  ): Promise<boolean> {
    const result = await withDb(
      "change the timer",
      () =>
        this.db.studySession.updateMany({
          where: { id: expected.id, endedAt: null, pausedAt: expected.pausedAt, nudgesShown: expected.nudgesShown },
          data,
        }),
      this.retry,
    );
    return result.count === 1;
  }

  async countMark(tx: Prisma.TransactionClient, id: string, before: string | null, after: string | null): Promise<void> {
    const delta = countDelta(before, after);
    if (delta.winCount === 0 && delta.struggleCount === 0) return;
    await tx.studySession.update({
      where: { id },
      data: { winCount: { increment: delta.winCount }, struggleCount: { increment: delta.struggleCount } },
    });
  }

  // ---- the ACP conversation (acp_events) ----------------------------------------------------------

  async append(sessionId: string, event: AcpEventRecord): Promise<void> {
    await withDb(
      "store the chat",
      () =>
        this.db.acpEvent.create({
          data: { sessionId, seq: event.seq, kind: event.kind, payload: JSON.stringify(event.payload), createdAt: new Date(event.at) },
        }),
      this.retry,
    );
  }

  async after(sessionId: string, afterSeq = 0): Promise<AcpEventRecord[]> {
    const rows = await this.db.acpEvent.findMany({ where: { sessionId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({
      seq: r.seq,
      kind: r.kind as AcpEventRecord["kind"],
      payload: JSON.parse(r.payload) as Record<string, unknown>,
      at: r.createdAt.toISOString(),
    }));
  }
}
