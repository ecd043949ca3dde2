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
// - A viewer is *stalled* once it has been behind (above the high watermark, not yet back below the low
//   one) and silent, acknowledging nothing, for STALL_MS (a phone gone to sleep), or as soon as it is
//   more than MAX_LAG_CHARS behind (a phone on a weak link while the laptop keeps up). A viewer that
//   keeps acknowledging is slow, not gone: it is not stalled however long it stays behind, and output
//   runs at its pace when it is the only viewer (as bare xterm.js flow control would), instead of its
//   live output being dropped and resynced on a busy machine. A stalled viewer is not counted and is sent no live output;
//   nothing is buffered for it. It stops being stalled once it has acknowledged its backlog below the
//   low watermark, and the session then resyncs it with one fresh snapshot (a replay frame).
// - Replay frames are owed separately: acks pay the oldest debt first, and replay chars do not count
//   toward the watermarks or the lag (a 1 MB snapshot would otherwise stall the viewer it resyncs).
// A viewer that never acknowledges again stays stalled until it detaches.
export { FlowControl } from "../../../common/terminal/flow-limits.ts";
import { FlowControl } from "../../../common/terminal/flow-limits.ts";

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
  /**
   * When the consumer went above the high watermark or, since then, last acknowledged anything (the
   * stall clock); cleared once it is back below the low one.
   */
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
    if (
      limits.LOW_WATERMARK_CHARS > limits.HIGH_WATERMARK_CHARS ||
      limits.REQUIRED_LOW_WATERMARK_CHARS > limits.REQUIRED_HIGH_WATERMARK_CHARS
    ) {
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
    const now = this.now();
    // Progress restarts the stall clock, unless the viewer is stalled already: then only catching up
    // (below the low watermark) ends the stall, so a stalled viewer is resynced once, not per ack.
    if (consumer.overSince !== undefined && !this.stalled(consumer, now)) consumer.overSince = now;
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
    return !consumer.required && consumer.overSince !== undefined && (consumer.lagged || now - consumer.overSince >= this.limits.STALL_MS);
  }
}
