// The statements that end a session, run in the store's one transaction (SessionStore.end): the row, its summary, the charts' totals.
import type { Prisma, StudySession } from "../db/generated/client.ts";
import { buildSummary } from "../../common/study/summary.ts";
import type { HistoryAggregateStore } from "./history-aggregates.ts";

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
  /**
   * Ends the row only if its heartbeat is still this one (a lapsed lease: an owner that renewed it
   * since keeps its session). Undefined: whatever the heartbeat.
   */
  readonly onlyIfHeartbeat?: Date | null;
}

/** The owner a conditional write expects: the row as read, or this server with its generation. */
export type Owner = Pick<StudySession, "ownerInstance" | "ownerPid" | "muxSession" | "ownerGeneration">;

/** What the end needs of the row as read: its id and what its summary's times come from. */
type EndingRow = Pick<StudySession, "id" | "startedAt" | "pausedMs" | "pausedAt">;

/**
 * Ends a row only if it is still open and, when `owner` is given, still owned by that owner.
 * Builds the summary from the marks and parked items written so far. Returns whether it ended it.
 */
export async function endRow(
  tx: Prisma.TransactionClient,
  aggregates: HistoryAggregateStore,
  row: EndingRow,
  write: EndWrite,
  owner?: Owner,
): Promise<boolean> {
  const [marks, parked] = await Promise.all([
    tx.topicMark.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
    tx.parkedItem.findMany({ where: { sessionId: row.id }, orderBy: { createdAt: "asc" } }),
  ]);
  const endedAt = write.endedAt < row.startedAt ? row.startedAt : write.endedAt;
  const summaryAt = (at: Date) =>
    JSON.stringify(buildSummary({ startedAt: row.startedAt, endedAt: at, pausedMs: row.pausedMs, pausedAt: row.pausedAt, marks, parked }));
  const result = await tx.studySession.updateMany({
    where: {
      id: row.id,
      endedAt: null,
      ...(write.onlyIfHeartbeat !== undefined ? { heartbeatAt: write.onlyIfHeartbeat } : {}),
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
  if (write.takeover) await endNoEarlierThanLastBeat(tx, row.id, endedAt, summaryAt, Boolean(write.transcript));
  await aggregates.sessionEnded(tx, row.id);
  return true;
}

/**
 * An orphan is ended at its last heartbeat as read; its owner may have written a later one before
 * this end (a tmux wrapper beating as tmux went). The row is this transaction's now (no heartbeat
 * of an ended row is taken, and none can commit past this write), so the end moves to that beat: no
 * study time is lost, and the end is never before the last moment it was seen alive.
 */
async function endNoEarlierThanLastBeat(
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
