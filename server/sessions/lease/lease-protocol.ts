// The messages between the server's thread and its lease thread (lease-thread.ts, lease-worker.ts).
import type { DatabaseTarget } from "../../db/database-target.ts";

export interface LeaseFence {
  readonly instanceId: string;
  readonly generation: number;
}

export interface LeaseWorkerData {
  readonly target: DatabaseTarget;
  /** How often every held lease is renewed, ms (STUDYLOOP_HEARTBEAT_SECONDS). */
  readonly heartbeatMs: number;
  /**
   * A renewal that took longer than this, ms, is not passed on to the agent's supervisor (its lease
   * file is not touched): the supervisor counts from when it sees the touch, which must stay within
   * the margin of the moment the database stamped the renewal.
   */
  readonly touchWithinMs: number;
  /** Absolute paths of the database drivers (the worker's script is evaluated, not resolved from a file). */
  readonly modules: { readonly sqlite: string; readonly pg: string };
}

export type LeaseRequest =
  | { readonly type: "hold"; readonly id: string; readonly fence: LeaseFence; readonly leaseFile: string | null }
  | { readonly type: "release"; readonly id: string }
  | { readonly type: "stop" };

export type LeaseReply =
  /** A renewal committed; `sentAt` is when it was sent, in ms since the epoch (performance.timeOrigin + now). */
  | { readonly type: "renewed"; readonly id: string; readonly generation: number; readonly sentAt: number }
  /** The fence refused it: the row was ended, or another server took it over. */
  | { readonly type: "lost"; readonly id: string; readonly generation: number }
  /** The database could not be reached or refused the statement. */
  | { readonly type: "failed"; readonly id: string; readonly error: string }
  | { readonly type: "stopped" };

/** A time as Prisma's SQLite adapter stores a DateTime: ISO 8601 with "+00:00", never "Z". */
export function prismaTime(at: Date): string {
  return at.toISOString().replace(/Z$/, "+00:00");
}
