// One log line per refused request, rate-limited: an unpaired client on the LAN can send thousands of
// requests a second, and each must not cost a line (or a stack trace) in the learner's terminal.
// Past the budget, refusals are counted and the count is logged with the next line allowed. Pure but
// for the injected clock and log.

export const RefusalLogLimits = {
  /** Lines logged per window at most. */
  MAX_LINES: 20,
  /** The window, in ms. */
  WINDOW_MS: 10_000,
  /** Characters of the request's path quoted at most (a path can be 8 KB). */
  MAX_PATH_CHARS: 120,
} as const;

export interface Refusal {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly address: string | undefined;
  readonly status: number;
  readonly reason: string;
}

export class RefusalLog {
  private windowStart = Number.NEGATIVE_INFINITY;
  private linesInWindow = 0;
  private suppressed = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
    private readonly limits: { MAX_LINES: number; WINDOW_MS: number } = RefusalLogLimits,
  ) {}

  record(refusal: Refusal): void {
    const now = this.now();
    if (now - this.windowStart >= this.limits.WINDOW_MS) {
      this.windowStart = now;
      this.linesInWindow = 0;
    }
    if (this.linesInWindow >= this.limits.MAX_LINES) {
      this.suppressed++;
      return;
    }
    this.linesInWindow++;
    const earlier = this.suppressed > 0 ? ` (and ${this.suppressed} more refused earlier, not logged)` : "";
    this.suppressed = 0;
    this.log(`Refused ${formatRefusal(refusal)}${earlier}`);
  }
}

/** "POST /api/x from 127.0.0.1: 401 This device is not paired…" with the path shortened. */
export function formatRefusal(r: Refusal): string {
  const url = r.url ?? "/";
  const path = url.length > RefusalLogLimits.MAX_PATH_CHARS ? `${url.slice(0, RefusalLogLimits.MAX_PATH_CHARS)}…` : url;
  return `${(r.method ?? "GET").slice(0, 16)} ${path} from ${r.address ?? "an unknown address"}: ${r.status} ${r.reason}`;
}
