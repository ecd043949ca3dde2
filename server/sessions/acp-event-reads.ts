// An ACP conversation as stored (acp_events), read back in order after a number: for the chat's
// catch-up (AcpEventStore) and for the learning record's index of it (recording/record-indexer.ts).
import type { Db } from "../db/client.ts";
import { withDb, type RetryOptions } from "../db/db-faults.ts";

/** One stored event as read: its kind as written, its payload as an object. */
export interface StoredAcpEvent {
  readonly seq: number;
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  readonly at: Date;
}

/** The events numbered after `afterSeq`, oldest first; a held write lock is waited for as a write's is. */
export async function readAcpEvents(db: Db, sessionId: string, afterSeq = 0, retry?: RetryOptions): Promise<StoredAcpEvent[]> {
  const rows = await withDb(
    "read the chat",
    () => db.acpEvent.findMany({ where: { sessionId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" } }),
    retry,
  );
  return rows.map((r) => ({ seq: r.seq, kind: r.kind, payload: payloadOf(r.payload), at: r.createdAt }));
}

/** A stored payload as an object; one that is not (a row edited by hand in prisma studio) reads as empty. */
export function payloadOf(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
