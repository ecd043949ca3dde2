// How many card writes (new cards, reviews, edits, imports) one client may make: a sliding window
// over the pairing limiter (server/security/rate-limiter.ts), counting every write, not only failures.
// Generous for a learner tapping through reviews; it stops a runaway script or tutor loop.
import { FailureLimiter } from "../security/rate-limiter.ts";

export const CardWriteLimit = {
  /** Writes allowed per client within the window: one review every second for two minutes. */
  MAX_WRITES: 120,
  /** The window, in ms: 2 minutes. */
  WINDOW_MS: 2 * 60_000,
  /** Clients tracked at most (devices, tutor sessions, this machine). */
  MAX_CLIENTS: 1_000,
} as const;

export class WriteBudget {
  private readonly limiter: FailureLimiter;

  constructor(
    options: { maxWrites: number; windowMs: number } = { maxWrites: CardWriteLimit.MAX_WRITES, windowMs: CardWriteLimit.WINDOW_MS },
    now: () => number = Date.now,
  ) {
    this.limiter = new FailureLimiter(
      { maxFailures: options.maxWrites, windowMs: options.windowMs, maxKeys: CardWriteLimit.MAX_CLIENTS },
      now,
    );
  }

  /** Counts one write for `client`; returns 0 when it may go ahead, or the ms to wait. */
  take(client: string): number {
    const wait = this.limiter.retryAfterMs(client);
    if (wait > 0) return wait;
    this.limiter.fail(client);
    return 0;
  }
}
