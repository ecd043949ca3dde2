// When a server must stop a session it runs because it could not renew the session's lease: a pure
// rule, so the margin that keeps two hosts from ever both running one session is tested as a table.

/** The keeper's pass: the lease is checked at least this often. */
export const LEASE_CHECK_MS = 1_000;
/**
 * A server stops a session this long before its lease (counted from when the last renewal that
 * succeeded was sent) runs out: by then no other host can have ended it yet (they count from the
 * moment the database wrote that heartbeat, which is later), so two hosts never both run it.
 */
export const LEASE_MARGIN_MS = LEASE_CHECK_MS;

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

/** The live sessions whose lease may lapse before the next check: their agents must stop now. */
export function lapsedLeases(holders: readonly LeaseHolder[], nowMs: number, leaseMs: number): LapsedLease[] {
  return holders
    .filter((h) => h.phase === "live" && !h.ending && nowMs - h.leaseRenewedAt >= leaseMs - LEASE_MARGIN_MS)
    .map((h) => ({ id: h.id, silentMs: nowMs - h.leaseRenewedAt }));
}
