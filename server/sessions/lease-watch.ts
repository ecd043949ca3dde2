// When a server must look again at a session it runs because its lease has not been renewed in time:
// a pure rule, so the margin that keeps two hosts from ever both running one session is a table.
// A lapse found here is not yet a loss: the keeper first tries a fenced renewal (session-keeper.ts),
// and stops the agent only when the fence shows another server took over or the database is gone.
import { LEASE_MARGIN_HEARTBEATS } from "../config/setting-pairs.ts";

/** The keeper's pass: the lease is checked at least this often. */
export const LEASE_CHECK_MS = 1_000;

/**
 * How long before its lease runs out (counted from when the last renewal that succeeded was sent) a
 * server acts, ms: several heartbeats, so a late or retried renewal is never a lapse, and the agent is
 * stopped well before another host may end the row (they count from when the database wrote that
 * renewal, which is later).
 */
export function leaseMarginMs(heartbeatMs: number): number {
  return LEASE_MARGIN_HEARTBEATS * heartbeatMs;
}

export interface LeaseHolder {
  readonly id: string;
  readonly phase: string;
  /** An end is already in flight. */
  readonly ending: boolean;
  /** performance.now() when the last renewal that succeeded was sent. */
  readonly leaseRenewedAt: number;
}

export interface LapsedLease {
  readonly id: string;
  readonly silentMs: number;
}

/** The live sessions whose lease is within the margin of running out: each must be renewed now or stopped. */
export function lapsedLeases(holders: readonly LeaseHolder[], nowMs: number, leaseMs: number, marginMs: number): LapsedLease[] {
  return holders
    .filter((h) => h.phase === "live" && !h.ending && nowMs - h.leaseRenewedAt >= leaseMs - marginMs)
    .map((h) => ({ id: h.id, silentMs: nowMs - h.leaseRenewedAt }));
}
