// Flow control for one pty and everything that consumes its output: the pure pause/resume/stall decision.
//
// Model (after VS Code's terminal host, src/vs/platform/terminal/common/terminal.ts FlowControlConstants):
// every consumer has a count of chars sent to it and not yet acknowledged; the pty is paused above the
// high watermark and resumed below the low one. So the server holds a bounded amount per consumer, and
// a Ctrl-C typed during a flood is answered after at most that much backlog.
//
// VS Code has one renderer per pty; we have the server's mirror plus a laptop and a phone. Policy:
// - The mirror is a *required* consumer: it must see every chunk (snapshots must be exact), so it is
//   always counted and never stalled; any required consumer above its own (wider) high watermark
//   pauses the pty. It parses on a low-priority thread, so in a burst it may fall well behind and
//   catch up after; only a backlog past REQUIRED_HIGH_WATERMARK_CHARS holds the agent back.
// - Viewers are *optional* consumers and output runs at the pace of the fastest counted viewer: the pty
//   pauses only when every counted viewer is above the high watermark, and resumes once the required
//   consumers and at least one counted viewer are below the low watermark. With one viewer this is
//   VS Code's rule; with two, a slow phone does not slow the laptop down.
// - A viewer is *stalled* once it has been above the high watermark (not yet back below the low one)
//   for STALL_MS (a phone gone to sleep), or as soon as it is more than MAX_LAG_CHARS behind (a phone on
//   a weak link while the laptop keeps up). A stalled viewer is not counted and is sent no live output;
//   nothing is buffered for it. It stops being stalled once it has acknowledged its backlog below the
//   low watermark, and the session then resyncs it with one fresh snapshot (a replay frame).
// - Replay frames are owed separately: acks pay the oldest debt first, and replay chars do not count
//   toward the watermarks or the lag (a 1 MB snapshot would otherwise stall the viewer it resyncs).
// A viewer that never acknowledges again stays stalled until it detaches.
// Bounds: the mirror holds at most ~REQUIRED_HIGH_WATERMARK_CHARS unparsed; a viewer is sent at most one
// snapshot plus MAX_LAG_CHARS plus one chunk beyond what it acknowledged; one silent viewer holds
// output paused for at most STALL_MS, and only when no other viewer is keeping up.

/** Flow-control limits, grouped; the unit is in each name, the invariant each keeps in its comment. */
export const FlowControl = {
  /**
   * Chars unacknowledged above which a consumer is "behind": the pty pauses when a required consumer,
   * or every counted viewer, is behind. Keeps the mirror's parse queue near this plus one chunk, far
   * under xterm's own 50 MB discard limit (its WriteBuffer throws "write data discarded" above that).
   */
  HIGH_WATERMARK_CHARS: 500_000,
  /**
   * Chars unacknowledged below which a consumer has caught up: the paused pty resumes, a stalled
   * viewer is resynced. The gap to the high watermark is hysteresis: no pause/resume on every chunk.
   * Unlike VS Code's renderer (5,000 over local IPC), our browser is a socket round trip plus a batch
   * window away: refilling takes several ms, and the low watermark must hold that much parsing work
   * (about 10,000 chars a ms in Chromium) or the browser idles at every resume; 100,000 with a
   * 500,000 high watermark measured best (docs/performance.md). A Ctrl-C then waits behind at most
   * ~500,000 chars of parsing, tens of ms.
   */
  LOW_WATERMARK_CHARS: 100_000,
  /**
   * Chars a viewer parses before it sends an ack (the browser's side of the contract; acks may also be
   * sent more often). Must be <= LOW_WATERMARK_CHARS: a viewer keeps up to ACK_EVERY_CHARS - 1 chars
   * unacknowledged, and that residue must already count as "below low" or the pty would never resume.
   * Half the low watermark: each ack is a socket.io message the page's main thread encodes, and that
   * thread is what a flood waits for. VS Code's 5,000 meant 10,000 acks per 50 MB, about a tenth of
   * the page's CPU in the throughput benchmark (docs/performance.md).
   */
  ACK_EVERY_CHARS: 50_000,
  /**
   * Milliseconds a viewer may stay behind (above high, not yet back below low) before it is stalled.
   * Bounds how long one silent device can hold output paused when it is the only (or fastest) viewer,
   * so the agent keeps working while a phone sleeps; long enough to ride out a Wi-Fi hiccup.
   */
  STALL_MS: 2_000,
  /**
   * Chars of live output a viewer may have unacknowledged before it is stalled even while other
   * viewers keep output flowing. Bounds the server's send buffer per slow viewer; must be above the
   * high watermark (a viewer is allowed to be "behind" before it is "lagging").
   */
  MAX_LAG_CHARS: 1_000_000,
  /**
   * The high watermark of a required consumer (the mirror). The mirror parses on its own thread at a
   * lower priority (mirror-thread.ts): while the browser's parser and the server compete for the
   * cores it falls behind, and catches up once the burst is over. Pausing the agent at the viewers'
   * 500,000 would let the mirror's low priority set the pace of the whole pipeline. Bounds the
   * worker's queue (~2 bytes a char: 8 MB) and what a snapshot may wait for (~0.2 s of parsing).
   */
  REQUIRED_HIGH_WATERMARK_CHARS: 4_000_000,
  /**
   * Where a required consumer has caught up enough to resume a pty it paused. Close to its high
   * watermark: a Ctrl-C typed while the mirror holds the pty paused is answered only after the resume
   * (the new prompt waits in the pty behind the paused reads); a band of 500,000 chars is ~25 ms of
   * parsing, where a low watermark of 1,000,000 measured ~100 ms to the prompt.
   */
  REQUIRED_LOW_WATERMARK_CHARS: 3_500_000,
} as const;

export interface FlowLimits {
  readonly HIGH_WATERMARK_CHARS: number;
  readonly LOW_WATERMARK_CHARS: number;
  readonly REQUIRED_HIGH_WATERMARK_CHARS: number;
  readonly REQUIRED_LOW_WATERMARK_CHARS: number;
  readonly STALL_MS: number;
  readonly MAX_LAG_CHARS: number;
}

export interface ConsumerOptions {
  /** True for the mirror: always counted, never stalled, and its backlog alone pauses the pty. */
  readonly required?: boolean;
}

interface ConsumerState {
  readonly required: boolean;
  /** Live output sent and not yet acknowledged. */
  unacked: number;
  /** Replay chars sent and not yet acknowledged (acks pay these first: they were sent first). */
  replayOwed: number;
  /** When the consumer went above the high watermark; cleared once it is back below the low one. */
  overSince: number | undefined;
  /** Went above MAX_LAG_CHARS since overSince; cleared with it. */
  lagged: boolean;
}

/** Tracks unacknowledged chars per consumer and decides pause/resume and stalls. No I/O; time is injected. */
export class FlowController {
  private readonly consumers = new Map<string, ConsumerState>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits: FlowLimits = FlowControl,
  ) {
    if (limits.LOW_WATERMARK_CHARS > limits.HIGH_WATERMARK_CHARS || limits.REQUIRED_LOW_WATERMARK_CHARS > limits.REQUIRED_HIGH_WATERMARK_CHARS) {
      throw new Error("Could not create flow control: the low watermark is above the high watermark");
    }
    if (limits.MAX_LAG_CHARS < limits.HIGH_WATERMARK_CHARS) {
      throw new Error("Could not create flow control: the lag limit is below the high watermark");
    }
  }

  /** Registers a consumer. `sent` registers unknown ids as optional viewers, so this is needed only for required ones. */
  add(consumerId: string, options: ConsumerOptions = {}): void {
    if (this.consumers.has(consumerId)) return;
    this.consumers.set(consumerId, {
      required: options.required ?? false,
      unacked: 0,
      replayOwed: 0,
      overSince: undefined,
      lagged: false,
    });
  }

  /** Live output sent to a consumer. */
  sent(consumerId: string, chars: number): void {
    if (!(chars > 0)) return;
    const consumer = this.consumer(consumerId);
    consumer.unacked += chars;
    if (consumer.unacked > this.limits.HIGH_WATERMARK_CHARS && consumer.overSince === undefined) {
      consumer.overSince = this.now();
    }
    if (consumer.unacked > this.limits.MAX_LAG_CHARS) consumer.lagged = true;
  }

  /** A replay (snapshot) sent to a viewer: owed, but not counted toward watermarks or lag. */
  sentReplay(consumerId: string, chars: number): void {
    if (!(chars > 0)) return;
    this.consumer(consumerId).replayOwed += chars;
  }

  /** Acks for unknown consumers (late, after `remove`) and non-positive counts are ignored; over-acks clamp to zero. */
  acked(consumerId: string, chars: number): void {
    const consumer = this.consumers.get(consumerId);
    if (!consumer || !(chars > 0)) return;
    const towardReplay = Math.min(consumer.replayOwed, chars);
    consumer.replayOwed -= towardReplay;
    consumer.unacked = Math.max(0, consumer.unacked - (chars - towardReplay));
    if (consumer.unacked < this.limits.LOW_WATERMARK_CHARS) {
      consumer.overSince = undefined;
      consumer.lagged = false;
    }
  }

  remove(consumerId: string): void {
    this.consumers.delete(consumerId);
  }

  has(consumerId: string): boolean {
    return this.consumers.has(consumerId);
  }

  /** Live output chars sent to the consumer and not yet acknowledged. */
  unackedChars(consumerId: string): number {
    return this.consumers.get(consumerId)?.unacked ?? 0;
  }

  /** Everything sent and not yet acknowledged by the consumer: live output plus replays. */
  outstandingChars(consumerId: string): number {
    const consumer = this.consumers.get(consumerId);
    return consumer ? consumer.unacked + consumer.replayOwed : 0;
  }

  /** Chars sent to all consumers and not yet acknowledged (replays included): what may be buffered downstream. */
  get totalOutstandingChars(): number {
    let total = 0;
    for (const consumer of this.consumers.values()) total += consumer.unacked + consumer.replayOwed;
    return total;
  }

  isStalled(consumerId: string): boolean {
    const consumer = this.consumers.get(consumerId);
    return consumer !== undefined && this.stalled(consumer, this.now());
  }

  /** True when a required consumer is behind, or every counted viewer is (and there is one). */
  shouldPause(): boolean {
    const now = this.now();
    let countedViewers = 0;
    let viewersBehind = 0;
    for (const consumer of this.consumers.values()) {
      if (consumer.required) {
        if (consumer.unacked > this.limits.REQUIRED_HIGH_WATERMARK_CHARS) return true;
        continue;
      }
      if (this.stalled(consumer, now)) continue;
      countedViewers++;
      if (consumer.unacked > this.limits.HIGH_WATERMARK_CHARS) viewersBehind++;
    }
    return countedViewers > 0 && viewersBehind === countedViewers;
  }

  /** True when every required consumer has caught up, and a counted viewer has too (or none is counted). */
  shouldResume(): boolean {
    const now = this.now();
    let countedViewers = 0;
    let viewersCaughtUp = 0;
    for (const consumer of this.consumers.values()) {
      if (consumer.required) {
        if (consumer.unacked >= this.limits.REQUIRED_LOW_WATERMARK_CHARS) return false;
        continue;
      }
      if (this.stalled(consumer, now)) continue;
      countedViewers++;
      if (consumer.unacked < this.limits.LOW_WATERMARK_CHARS) viewersCaughtUp++;
    }
    return countedViewers === 0 || viewersCaughtUp > 0;
  }

  /**
   * Milliseconds until the next viewer that is behind would become stalled, or undefined when none is
   * on its way. The session re-evaluates pause/resume then: nothing else happens while the pty is
   * paused and a viewer is silent.
   */
  msUntilNextStall(): number | undefined {
    const now = this.now();
    let soonest: number | undefined;
    for (const consumer of this.consumers.values()) {
      if (consumer.required || consumer.overSince === undefined || this.stalled(consumer, now)) continue;
      const remaining = consumer.overSince + this.limits.STALL_MS - now;
      soonest = soonest === undefined ? remaining : Math.min(soonest, remaining);
    }
    return soonest === undefined ? undefined : Math.max(0, soonest);
  }

  private consumer(consumerId: string): ConsumerState {
    this.add(consumerId);
    return this.consumers.get(consumerId)!;
  }

  private stalled(consumer: ConsumerState, now: number): boolean {
    return (
      !consumer.required &&
      consumer.overSince !== undefined &&
      (consumer.lagged || now - consumer.overSince >= this.limits.STALL_MS)
    );
  }
}
