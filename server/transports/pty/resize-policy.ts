// Which size a shared terminal takes when several devices watch it: the pure decision.
//
// Policy: the device that typed last sets the size (it is the one the learner is using). When no
// attached device has typed yet, the device that most recently reported a size (attached or resized)
// sets it. With no size reported at all, the terminal keeps its size. Sizes are clamped to sane bounds.

export interface TerminalSize {
  readonly cols: number;
  readonly rows: number;
}

/** What the session knows about one attached viewer. Orders are any increasing counter (or times). */
export interface ViewerSizeFacts {
  readonly viewerId: string;
  /** The size of the viewer's screen, once it has reported one. */
  readonly size: TerminalSize | undefined;
  /** When it last typed; undefined if it never has. */
  readonly typedAt: number | undefined;
  /** When it last reported its size; undefined if it never has. */
  readonly sizedAt: number | undefined;
}

/** Bounds on a terminal's size, in character cells. */
export const TerminalSizeLimits = {
  /** Cols: xterm's own minimum (it refuses to render narrower). */
  MIN_COLS: 2,
  /** Rows: xterm's own minimum. */
  MIN_ROWS: 1,
  /** Cols: a 4K screen at a tiny font is ~ 480; more is a bug or an attack on the mirror's memory. */
  MAX_COLS: 1_000,
  /** Rows: same reasoning as MAX_COLS; the mirror's memory grows with rows x (rows + scrollback). */
  MAX_ROWS: 500,
} as const;

export function clampTerminalSize(size: TerminalSize): TerminalSize {
  const clamp = (value: number, min: number, max: number) =>
    Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
  return {
    cols: clamp(size.cols, TerminalSizeLimits.MIN_COLS, TerminalSizeLimits.MAX_COLS),
    rows: clamp(size.rows, TerminalSizeLimits.MIN_ROWS, TerminalSizeLimits.MAX_ROWS),
  };
}

/** The size the terminal should have now, given its current size and the attached viewers. */
export function decideTerminalSize(current: TerminalSize, viewers: readonly ViewerSizeFacts[]): TerminalSize {
  const sized = viewers.filter((viewer) => viewer.size !== undefined);
  const latest = (key: "typedAt" | "sizedAt") =>
    sized.reduce<ViewerSizeFacts | undefined>((best, viewer) => {
      const at = viewer[key];
      if (at === undefined) return best;
      const bestAt = best?.[key];
      return bestAt === undefined || at > bestAt ? viewer : best;
    }, undefined);
  const chosen = latest("typedAt") ?? latest("sizedAt");
  return chosen?.size ? clampTerminalSize(chosen.size) : current;
}
