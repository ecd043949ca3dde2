// The ACP conversation (acp_events): each event stored as it arrives, read back after a number.
import type { Db } from "../db/client.ts";
import { withDb, type RetryOptions } from "../db/db-faults.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { AcpEventLog } from "../transports/acp/acp-transport.ts";
import { readAcpEvents } from "./acp-event-reads.ts";

export class AcpEventStore implements AcpEventLog {
  constructor(
    private readonly db: Db,
    /** The session store's retry options, so a chat write waits for a held lock as its other writes do. */
    private readonly retry: RetryOptions,
  ) {}

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
    const events = await readAcpEvents(this.db, sessionId, afterSeq, this.retry);
    return events.map((e) => ({ ...e, kind: e.kind as AcpEventRecord["kind"], at: e.at.toISOString() }));
  }
}
