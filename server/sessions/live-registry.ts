// The sessions this server process owns right now: the reservations being started and the live ones.
// Owned by the session core (starter adds, keeper removes, viewers mark who watches).
import type { LiveTransport } from "../transports/live-transport.ts";
import type { SessionRow } from "./session-rows.ts";
import type { EndWrite } from "./session-end-write.ts";
import type { Phase } from "./session-lifecycle.ts";

export interface LiveSession {
  readonly id: string;
  readonly transport: LiveTransport;
  readonly agentLabel: string;
  readonly startedAt: Date;
  /** Socket ids of the viewers attached now. */
  readonly viewers: Set<string>;
  attachedOnce: boolean;
  /** When the last viewer left (start of the grace window); null while someone watches. */
  lastViewerLeftAt: Date | null;
  /** Output number covered by the last transcript checkpoint. */
  checkpointSeq: number;
  lastCheckpointAt: number;
  /** live, ending (written before the agent is stopped), ended (the final write done). */
  phase: Phase;
  /** While ending: the final write still to make (a fault made it fail; the keeper retries it). */
  pendingEnd: EndWrite | null;
  /** The in-flight end, shared by everyone who asks to end it meanwhile. */
  ending: Promise<void> | null;
  /** When the focus timer was last resumed (grace counts from here at the earliest). */
  resumedAt: number | null;
  /** The owner generation this server claimed the row with: every owner write is fenced by it. */
  readonly generation: number;
  /**
   * When the last lease renewal that succeeded was SENT (performance.now(), ms): past a lease from
   * here another host may end the row, so this server stops the agent before that (lease-watch.ts).
   */
  leaseRenewedAt: number;
  /** The row as the keeper last read it (for the page's ended view when the database is gone). */
  lastRow: SessionRow | null;
}

export class LiveRegistry {
  private readonly reservations = new Set<string>();
  private readonly live = new Map<string, LiveSession>();

  reserve(id: string): void {
    this.reservations.add(id);
  }

  release(id: string): void {
    this.reservations.delete(id);
  }

  add(session: LiveSession): void {
    this.reservations.delete(session.id);
    this.live.set(session.id, session);
  }

  remove(id: string): void {
    this.live.delete(id);
    this.reservations.delete(id);
  }

  get(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  reserving(id: string): boolean {
    return this.reservations.has(id);
  }

  /** The sessions being started (their agent not yet running): their leases are kept too. */
  reserved(): string[] {
    return [...this.reservations];
  }

  all(): LiveSession[] {
    return [...this.live.values()];
  }
}
