// The one writer of study_sessions (and the reader of its hot paths). Every write that ends a
// session is conditional, so two readers (or two servers) that both decide to end it cannot fight:
// the first one wins. Every write goes through withDb: a held lock is retried, a fault leaves as
// DbUnavailable naming what could not be done, and nothing is half-written (one statement or one
// transaction each). The lifecycle's writes are here; the end's statements (session-end-write.ts),
// the study loop's writes (study-writes.ts) and the ACP conversation (acp-event-store.ts) are its
// parts in their own files, on the same connection with the same retries.
import { Prisma } from "../db/generated/client.ts";
import type { Db, ReadConnection } from "../db/client.ts";
import type { StudySession } from "../db/generated/client.ts";
import { withDb, type RetryOptions } from "../db/db-faults.ts";
import type { Provider } from "../db/database-target.ts";
import { providerOf } from "../db/provider-of.ts";
import { sessionReads, type SessionReads } from "./session-reads.ts";
import type { SessionRow } from "./session-rows.ts";
import { HistoryAggregateStore } from "./history-aggregates.ts";
import { endRow, type EndWrite, type Owner } from "./session-end-write.ts";
import { StudyWrites } from "./study-writes.ts";
import { AcpEventStore } from "./acp-event-store.ts";

/** Value of live_slot while a session is not ended: the unique index allows only one such row. */
export const LIVE_SLOT = 1;

/** A claimed row's owner generation; each takeover by another host (ending it for its owner) adds one. */
export const FIRST_GENERATION = 1;

/** The fields of a new row that the starter decides. */
export type ClaimRow = Omit<Prisma.StudySessionCreateInput, "status" | "liveSlot" | "parkedItems" | "topicMarks" | "acpEvents">;

/** A server's fence on a row it runs: its instance and the generation it claimed. */
export interface Fence {
  readonly instanceId: string;
  readonly generation: number;
}

const fenced = (id: string, fence: Fence) => ({ id, ownerInstance: fence.instanceId, ownerGeneration: fence.generation });

export class SessionStore {
  private readonly provider: Provider;
  /** The reads every state read and the history list make (session-reads.ts: SQLite or PostgreSQL). */
  private readonly reads: SessionReads;
  /** The charts' aggregates: this store keeps the focus per day as it ends sessions. */
  readonly aggregates: HistoryAggregateStore;
  /** The study loop's writes (ports.ts: SessionReader.writes). */
  readonly study: StudyWrites;
  /** The ACP conversation: the log each chat transport stores its events in. */
  readonly acpEvents: AcpEventStore;

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
    this.study = new StudyWrites(db, retry);
    this.acpEvents = new AcpEventStore(db, retry);
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
   * Ends a row only if it is still open and, when `owner` is given, still owned by that owner, in one
   * transaction (session-end-write.ts). Returns whether it ended it.
   */
  async end(row: SessionRow, write: EndWrite, owner?: Owner, retry: RetryOptions = this.retry): Promise<boolean> {
    return withDb("end the session", () => this.db.$transaction((tx) => endRow(tx, this.aggregates, row, write, owner)), retry);
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
}
