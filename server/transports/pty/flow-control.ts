// Flow control for one pty and everything that consumes its output: the pure pause/resume/stall decision.
//
// Model (after VS Code's terminal host, src/vs/platform/terminal/common/terminal.ts FlowControlConstants):
// every consumer (each viewer, and the server-side mirror) has a count of chars sent to it and not yet
// acknowledged. The pty is paused when a consumer is above the high watermark and resumed when all are
// below the low one, so the server never holds more than about one high watermark per consumer, and a
// Ctrl-C typed during a flood is answered after at most that much backlog.
//
// Stall policy (our addition: VS Code has one renderer per pty, we have a laptop and a phone):
// a viewer that has gone above the high watermark and has not come back below the low watermark within
// STALL_MS is *stalled*. A stalled viewer
//   - no longer counts for pause/resume (it cannot hold the pty paused, so a sleeping phone cannot
//     freeze the laptop for more than STALL_MS),
//   - is sent no live output (the session skips it; what it missed is not buffered for it),
//   - stops being stalled by itself once it has acknowledged its backlog down below the low watermark;
//     the session then resyncs it with one fresh snapshot (a replay frame) instead of the chunks it missed.
// A viewer that never acknowledges again stays stalled until it detaches. The mirror is registered as
// not stallable: the snapshot must stay exact, so it may pause the pty for as long as it needs.

/** Flow-control limits, grouped; the unit is in each name, the invariant each keeps in its comment. */
export const FlowControl = {
  /**
   * Chars unacknowledged by one consumer above which the pty is paused. Keeps what the server buffers
   * for a consumer (socket.io send buffer, the mirror's parse queue) near this plus one chunk, and far
   * under xterm's own 50 MB discard limit (its WriteBuffer throws "write data discarded" above that).
   */
  HIGH_WATERMARK_CHARS: 100_000,
  /**
   * Chars unacknowledged below which (for every counted consumer) the paused pty resumes. The gap to
   * the high watermark is hysteresis: the pty is not paused and resumed on every chunk.
   */
  LOW_WATERMARK_CHARS: 5_000,
  /**
   * Chars a viewer parses before it sends an ack (the browser's side of the contract; acks may also be
   * sent more often). Must be <= LOW_WATERMARK_CHARS: a viewer keeps up to ACK_EVERY_CHARS - 1 chars
   * unacknowledged, and that residue must already count as "below low" or the pty would never resume.
   */
  ACK_EVERY_CHARS: 5_000,
  /**
   * Milliseconds a viewer may stay above the high watermark (not yet back under the low one) before it
   * is stalled. Bounds how long one slow or sleeping device can hold everyone else's output paused;
   * long enough for a phone on Wi-Fi to parse a full snapshot in the ordinary case.
   */
  STALL_MS: 2_000,
} as const;

export interface FlowLimits {
  readonly HIGH_WATERMARK_CHARS: number;
  readonly LOW_WATERMARK_CHARS: number;
  readonly STALL_MS: number;
}

export interface ConsumerOptions {
  /** False for the mirror: it is always counted and never stalled. Defaults to true (viewers). */
  readonly stallable?: boolean;
}

interface ConsumerState {
  unacked: number;
  readonly stallable: boolean;
  /** When the consumer went above the high watermark; cleared once it is back below the low one. */
  overSince: number | undefined;
}

/** Tracks unacknowledged chars per consumer and decides pause/resume and stalls. No I/O; time is injected. */
export class FlowController {
  private readonly consumers = new Map<string, ConsumerState>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits: FlowLimits = FlowControl,
  ) {
    if (limits.LOW_WATERMARK_CHARS > limits.HIGH_WATERMARK_CHARS) {
      throw new Error("Could not create flow control: the low watermark is above the high watermark");
    }
  }

  /** Registers a consumer. `sent` registers unknown ids as stallable viewers, so this is needed only to opt out. */
  add(consumerId: string, options: ConsumerOptions = {}): void {
    if (this.consumers.has(consumerId)) return;
    this.consumers.set(consumerId, { unacked: 0, stallable: options.stallable ?? true, overSince: undefined });
  }

  sent(consumerId: string, chars: number): void {
    if (!(chars > 0)) return;
    this.add(consumerId);
    const consumer = this.consumers.get(consumerId)!;
    consumer.unacked += chars;
    if (consumer.unacked > this.limits.HIGH_WATERMARK_CHARS && consumer.overSince === undefined) {
      consumer.overSince = this.now();
    }
  }

  /** Acks for unknown consumers (late, after `remove`) and non-positive counts are ignored; over-acks clamp to zero. */
  acked(consumerId: string, chars: number): void {
    const consumer = this.consumers.get(consumerId);
    if (!consumer || !(chars > 0)) return;
    consumer.unacked = Math.max(0, consumer.unacked - chars);
    if (consumer.unacked < this.limits.LOW_WATERMARK_CHARS) consumer.overSince = undefined;
  }

  remove(consumerId: string): void {
    this.consumers.delete(consumerId);
  }

  has(consumerId: string): boolean {
    return this.consumers.has(consumerId);
  }

  unackedChars(consumerId: string): number {
    return this.consumers.get(consumerId)?.unacked ?? 0;
  }

  /** Chars sent to all consumers and not yet acknowledged: what may be buffered downstream of the pty. */
  get totalUnackedChars(): number {
    let total = 0;
    for (const consumer of this.consumers.values()) total += consumer.unacked;
    return total;
  }

  isStalled(consumerId: string): boolean {
    const consumer = this.consumers.get(consumerId);
    return consumer !== undefined && this.stalled(consumer, this.now());
  }

  /** True when a counted (not stalled) consumer is above the high watermark. */
  shouldPause(): boolean {
    const now = this.now();
    for (const consumer of this.consumers.values()) {
      if (this.stalled(consumer, now)) continue;
      if (consumer.unacked > this.limits.HIGH_WATERMARK_CHARS) return true;
    }
    return false;
  }

  /** True when every counted (not stalled) consumer is below the low watermark. */
  shouldResume(): boolean {
    const now = this.now();
    for (const consumer of this.consumers.values()) {
      if (this.stalled(consumer, now)) continue;
      if (consumer.unacked >= this.limits.LOW_WATERMARK_CHARS) return false;
    }
    return true;
  }

  /**
   * Milliseconds until the next consumer that is above the high watermark would become stalled, or
   * undefined when none is on its way. The session re-evaluates pause/resume then: nothing else happens
   * while the pty is paused and a viewer is silent.
   */
  msUntilNextStall(): number | undefined {
    const now = this.now();
    let soonest: number | undefined;
    for (const consumer of this.consumers.values()) {
      if (!consumer.stallable || consumer.overSince === undefined || this.stalled(consumer, now)) continue;
      const remaining = consumer.overSince + this.limits.STALL_MS - now;
      soonest = soonest === undefined ? remaining : Math.min(soonest, remaining);
    }
    return soonest === undefined ? undefined : Math.max(0, soonest);
  }

  private stalled(consumer: ConsumerState, now: number): boolean {
    return (
      consumer.stallable && consumer.overSince !== undefined && now - consumer.overSince >= this.limits.STALL_MS
    );
  }
}
