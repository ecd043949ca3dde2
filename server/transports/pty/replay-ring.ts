// The recent output a viewer back from a short drop resumes from, instead of a full replay: numbered
// output chunks and size changes, bounded in chars and in chunks. Also what a mirror made again after
// its worker failed is rebuilt from (terminal-session.ts). Pure: no I/O, no timers.
import type { DeviceKind } from "./resize-policy.ts";

/** An output chunk or a size change, numbered as viewers get it. */
export type RingFrame =
  /** Chunk number `seq` of the program's output. Numbers increase by one per chunk, from 1. */
  | { type: "output"; seq: number; data: string }
  /** The terminal was resized after chunk `seq`, for the active device (a `sizedFor` screen). */
  | { type: "resize"; seq: number; cols: number; rows: number; sizedFor?: DeviceKind };

export interface ReplayRingLimits {
  /** Chars of output kept (about 2 bytes a char). */
  readonly maxChars: number;
  /** Frames kept at most, whatever their size: bounds per-frame overhead when chunks are tiny. */
  readonly maxFrames: number;
}

export class ReplayRing {
  /** Frames from `head` on; slots before it are cleared (evicted) until the array is compacted. */
  private readonly frames: (RingFrame | undefined)[] = [];
  private head = 0;
  private charCount = 0;
  /** A viewer can resume from `sinceSeq` only if sinceSeq >= this: nothing it needs was evicted. */
  private resumeFloor = 0;

  constructor(private readonly limits: ReplayRingLimits) {}

  /** Chars of output held. */
  get chars(): number {
    return this.charCount;
  }

  push(frame: RingFrame): void {
    this.frames.push(frame);
    if (frame.type === "output") this.charCount += frame.data.length;
    const { maxChars, maxFrames } = this.limits;
    while (this.frames.length - this.head > 1 && (this.charCount > maxChars || this.frames.length - this.head > maxFrames)) {
      const evicted = this.frames[this.head]!;
      this.frames[this.head] = undefined; // release the chunk now, not at the next compaction
      this.head++;
      if (evicted.type === "output") {
        this.charCount -= evicted.data.length;
        this.resumeFloor = Math.max(this.resumeFloor, evicted.seq);
      } else {
        // A resize after chunk n is needed by a viewer that saw chunk n: it can no longer resume from n.
        this.resumeFloor = Math.max(this.resumeFloor, evicted.seq + 1);
      }
    }
    if (this.head > 1_024 && this.head * 2 > this.frames.length) {
      this.frames.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Whether a viewer that saw chunks <= sinceSeq (of `lastSeq` so far) can get the rest from here. */
  canResumeFrom(sinceSeq: number, lastSeq: number): boolean {
    return Number.isInteger(sinceSeq) && sinceSeq >= this.resumeFloor && sinceSeq <= lastSeq;
  }

  /** What a viewer that saw chunks <= sinceSeq missed: later chunks, and size changes after its last. */
  *after(sinceSeq: number): Generator<RingFrame> {
    for (let i = this.head; i < this.frames.length; i++) {
      const frame = this.frames[i]!;
      if (frame.type === "output" ? frame.seq > sinceSeq : frame.seq >= sinceSeq) yield frame;
    }
  }

  /** Every frame held, oldest first. */
  *all(): Generator<RingFrame> {
    for (let i = this.head; i < this.frames.length; i++) yield this.frames[i]!;
  }

  clear(): void {
    this.frames.length = 0;
    this.head = 0;
    this.charCount = 0;
  }
}
