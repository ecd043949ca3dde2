// What the session keeper needs of whoever renews its leases: hold a lease while the session is this
// server's, release it when not, and hear what became of each renewal. Two implementations: the
// lease thread (lease-thread.ts: the server's, on its own thread and connection) and the store's
// (store-renewals.ts: in this thread, for a process that runs no session of its own, and tests).
import type { LeaseFence } from "./lease-protocol.ts";

export type { LeaseFence } from "./lease-protocol.ts";

export interface LeaseListener {
  /** A renewal committed; `sentAt` is performance.now() on this thread when it was sent. */
  renewed(id: string, generation: number, sentAt: number): void;
  /** The fence refused a renewal: the row was ended, or taken over by another server. */
  lost(id: string, generation: number): void;
  /** The database could not be reached (logged by the listener, summarised). */
  failed(id: string, error: string): void;
}

export interface LeaseRenewals {
  /** Renews this lease every heartbeat from now on (idempotent; a new generation replaces the old). */
  hold(id: string, fence: LeaseFence, leaseFile: string | null): void;
  release(id: string): void;
  /** The ids held now. */
  held(): string[];
  close(): Promise<void>;
}
