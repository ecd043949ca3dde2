// Messages between a MirrorThread (the session's side) and its mirror worker. Kept in one place so both
// sides agree on them; postMessage copies them (structured clone), so they hold only plain data.
import type { ScreenPreview } from "./screen-preview.ts";
import type { MirrorSnapshot } from "./terminal-mirror.ts";
import type { TerminalColours } from "./terminal-extras.ts";
import type { ThreadMemory } from "./thread-memory.ts";

export interface MirrorWorkerData {
  readonly cols: number;
  readonly rows: number;
  readonly scrollback?: number;
  /** Nice value for the worker's thread (Linux: per thread), or undefined to leave it as it is. */
  readonly nice?: number;
  readonly colours?: TerminalColours;
}

/** To the worker. Handled strictly in order, which is what keeps snapshots exact. */
export type MirrorRequest =
  /** Output, as UTF-8 (its buffer is transferred, not copied: mirror-thread.ts). */
  | { readonly type: "write"; readonly data: Uint8Array }
  | { readonly type: "resize"; readonly cols: number; readonly rows: number }
  /** Colour queries after this are answered with these colours. */
  | { readonly type: "colours"; readonly colours: TerminalColours }
  | { readonly type: "snapshot"; readonly id: number; readonly excludeModes: boolean }
  | { readonly type: "preview"; readonly id: number }
  /** The worker's own memory, answered at once (not behind the writes). */
  | { readonly type: "memory"; readonly id: number };

/** From the worker. */
export type MirrorReply =
  /** This many more writes (in the order they were sent) have been parsed. */
  | { readonly type: "parsed"; readonly writes: number }
  /** The terminal's answer to a query in the output (DA, CPR, OSC 11...): for the program's input. */
  | { readonly type: "reply"; readonly data: string }
  | { readonly type: "snapshot"; readonly id: number; readonly snapshot: MirrorSnapshot }
  | { readonly type: "preview"; readonly id: number; readonly preview: ScreenPreview }
  | { readonly type: "memory"; readonly id: number; readonly memory: ThreadMemory }
  /** A snapshot or preview could not be taken. */
  | { readonly type: "read-failed"; readonly id: number; readonly message: string };
