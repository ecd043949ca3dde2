// Failed attempts per client address in a sliding window: past the limit the address is refused
// until its oldest counted failure leaves the window. Pure (the clock is injected); memory bounded.

export const PairingRateLimit = {
  /** Failed pairing attempts allowed per address within the window. */
  MAX_FAILURES: 10,
  /** The window, in ms: 15 minutes. Ten guesses at a 256-bit token per 15 minutes is no attack. */
  WINDOW_MS: 15 * 60_000,
  /** Addresses tracked at most; the least recently failed is forgotten first. */
  MAX_ADDRESSES: 10_000,
} as const;

export interface LimiterOptions {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly maxKeys: number;
}

export class FailureLimiter {
  /** Failure times per key, oldest first; insertion order of the map is least recently failed first. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: LimiterOptions = {
      maxFailures: PairingRateLimit.MAX_FAILURES,
      windowMs: PairingRateLimit.WINDOW_MS,
      maxKeys: PairingRateLimit.MAX_ADDRESSES,
    },
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  retryAfterMs(key: string): number {
    const times = this.recent(key);
    if (times.length < this.options.maxFailures) return 0;
    return Math.max(1, times[times.length - this.options.maxFailures]! + this.options.windowMs - this.now());
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.now());
    // Only the newest maxFailures matter for the decision.
    if (times.length > this.options.maxFailures) times.splice(0, times.length - this.options.maxFailures);
    this.failures.delete(key);
    this.failures.set(key, times);
    while (this.failures.size > this.options.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  private recent(key: string): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const cutoff = this.now() - this.options.windowMs;
    const kept = times.filter((t) => t > cutoff);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }
}

/** One key per client: IPv4-mapped IPv6 addresses count as their IPv4 address. */
export function addressKey(remoteAddress: string | undefined): string {
  if (!remoteAddress) return "unknown";
  return remoteAddress.startsWith("::ffff:") && remoteAddress.includes(".") ? remoteAddress.slice(7) : remoteAddress;
}
