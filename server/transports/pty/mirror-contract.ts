// What the terminal mirror promises its users: the mirror itself (terminal-mirror.ts, which parses in a
// worker thread) and the session's handle on it (mirror-thread.ts). Kept apart from @xterm/headless, so
// the server's own thread never loads xterm: only the worker that parses does.
export const MirrorLimits = {
  /** Lines of scrollback kept above the screen; the snapshot (and transcript) holds at most this many. */
  SCROLLBACK_LINES: 10_000,
} as const;

export interface MirrorSnapshot {
  /** Escape sequences that rebuild the buffer and cursor when written into a fresh terminal of this size. */
  readonly data: string;
  readonly cols: number;
  readonly rows: number;
}

export interface SerializeOptions {
  /** Leave out terminal modes (mouse, focus, bracketed paste...): for transcripts of ended sessions. */
  readonly excludeModes?: boolean;
}

export class MirrorDisposedError extends Error {
  override readonly name = "MirrorDisposedError";
  constructor() {
    super("Could not read the terminal mirror: it has been disposed");
  }
}
