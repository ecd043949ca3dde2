// What a terminal session sends its viewers and what they tell it: the types shared by the session
// (terminal-session.ts) and the wire that carries them (server/realtime).
import type { RingFrame } from "./replay-ring.ts";
import type { DeviceKind } from "./resize-policy.ts";

/** An output chunk or a size change, numbered as viewers get it: what output listeners see. */
export type OutputFrame = RingFrame;

/** What a viewer receives, in order. Viewers ack the chars of `output` and `replay` data they have parsed. */
export type TerminalFrame =
  /** Output chunks and size changes, numbered (replay-ring.ts). */
  | OutputFrame
  /** The whole screen and scrollback as of chunk `seq` (0: before any output), taken at cols x rows. */
  | { type: "replay"; seq: number; data: string; cols: number; rows: number; sizedFor?: DeviceKind }
  /**
   * The last frame a viewer gets when its replay could not be made (the mirror failed): it has been
   * detached, and nothing more comes until it attaches again. Without it the page would look live.
   */
  | { type: "detached"; seq: number };

/** What a viewer tells the session about its screen. */
export interface ViewerScreen {
  readonly cols: number;
  readonly rows: number;
  readonly device?: DeviceKind;
  /** Its terminal's colour scheme: the mirror answers colour queries with the active device's. */
  readonly dark?: boolean;
}

/** What the session holds in memory for output right now (for tests, health and benchmarks). */
export interface TerminalBufferStats {
  /** Chars of output in the replay ring. */
  replayBufferChars: number;
  /** Chars written to the mirror and not yet parsed. */
  mirrorPendingChars: number;
  /** Chars sent (or queued) to viewers and not yet acknowledged, replays included, summed over viewers. */
  viewerUnackedChars: number;
  /** Output paused because a consumer is behind. */
  paused: boolean;
  /** Viewers currently stalled (see flow-control.ts). */
  stalledViewers: string[];
}
