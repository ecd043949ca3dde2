// Which size a shared terminal takes when several devices watch it: the pure decisions.
//
// Policy: the active device sets the size. A device becomes active by claiming the size: it typed
// (input that is a device's activity, see isDeviceActivity), or the learner pressed "Fit to this
// screen" on it. Only the very first size reported to a terminal nobody has claimed claims it too (the
// page that started the session). Reporting a size otherwise claims nothing, so a reload or a second
// device attaching never resizes the terminal by itself. When the active device leaves, the terminal
// keeps its size (no other device takes it back until it claims it again: a reload of the active
// device must not hand the size to another for a moment). Sizes are clamped to sane bounds.

export interface TerminalSize {
  readonly cols: number;
  readonly rows: number;
}

/** What kind of screen a device has: the cue on the others names it ("sized for your phone"). */
export type DeviceKind = "phone" | "laptop";

/** What the session knows about one attached viewer. Orders are any increasing counter (or times). */
export interface ViewerSizeFacts {
  readonly viewerId: string;
  /** The size of the viewer's screen, once it has reported one. */
  readonly size: TerminalSize | undefined;
  /** When it last claimed the size (typed, or asked to fit); undefined if it never has. */
  readonly claimedAt: number | undefined;
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

/**
 * The attached viewer that sets the size: the one that made the session's latest claim
 * (`latestClaim`), if it is still attached and has reported a size.
 */
export function activeViewer(viewers: readonly ViewerSizeFacts[], latestClaim: number | undefined): ViewerSizeFacts | undefined {
  if (latestClaim === undefined) return undefined;
  return viewers.find((viewer) => viewer.claimedAt === latestClaim && viewer.size !== undefined);
}

/** The size the terminal should have now, given its current size, the attached viewers and the latest claim. */
export function decideTerminalSize(
  current: TerminalSize,
  viewers: readonly ViewerSizeFacts[],
  latestClaim: number | undefined,
): TerminalSize {
  const chosen = activeViewer(viewers, latestClaim);
  return chosen?.size ? clampTerminalSize(chosen.size) : current;
}

/**
 * Reports a terminal sends on its own, not because the learner did something: focus in/out
 * (CSI I / CSI O, sent when a page gains or loses focus with focus reporting on) and, from a page
 * that still answers queries, the answers (DA, DECRPM, OSC colour reports). They never claim the size.
 */
const AUTOMATIC = [
  /^\x1b\[[IO]$/,
  /^\x1b\[\?[\d;]*c$/,
  /^\x1b\[>[\d;]*c$/,
  /^\x1b\[\??[\d;]+\$y$/,
  /^\x1b\](?:4;\d+|1[0-2]);rgb:[0-9a-f/]+(?:\x07|\x1b\\)$/i,
  /^\x1bP[>!]?[|$][^\x1b]*\x1b\\$/,
];

/** Whether input from a device is the learner's activity (it claims the size) or an automatic report. */
export function isDeviceActivity(data: string): boolean {
  return !AUTOMATIC.some((pattern) => pattern.test(data));
}
