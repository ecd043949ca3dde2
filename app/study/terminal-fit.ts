// How a page shows a terminal sized for another device: the pure decisions. The active device sets
// the terminal's size (server/transports/pty/resize-policy.ts); every other page shows the whole
// screen, scaled down to its width, or at full size with scrolling where scaling would make the text
// unreadable (a phone showing a laptop's 150 columns), and says so with a cue.
import type { DeviceKind } from "@/server/transports/pty/resize-policy";

export const TerminalFitLimits = {
  /** Below this scale a phone's text is too small to read: it scrolls sideways instead. */
  PHONE_MIN_SCALE: 0.6,
  /** Below this scale on a larger screen: same reasoning, with a larger font to start from. */
  MIN_SCALE: 0.45,
  /** How long the terminal must stay sized for another screen before the cue says so (ms; settled-cue.ts). */
  CUE_SETTLE_MS: 800,
} as const;

export interface FitInput {
  /** The size (px) the page has for the terminal, and the terminal's own size at full size. */
  readonly hostWidth: number;
  readonly naturalWidth: number;
  /** Heights: a larger screen also scales to show every row; a phone scrolls down instead. */
  readonly hostHeight?: number;
  readonly naturalHeight?: number;
  readonly phone: boolean;
}

export interface FitView {
  /** CSS scale applied to the terminal (1: full size). */
  readonly scale: number;
  /** The terminal is wider than the page at a readable scale: the page scrolls sideways. */
  readonly scroll: boolean;
}

export function fitView({ hostWidth, naturalWidth, hostHeight = 0, naturalHeight = 0, phone }: FitInput): FitView {
  if (!(hostWidth > 0) || !(naturalWidth > 0)) return { scale: 1, scroll: false };
  const heightScale = !phone && hostHeight > 0 && naturalHeight > 0 ? hostHeight / naturalHeight : 1;
  const scale = Math.min(hostWidth / naturalWidth, heightScale);
  if (scale >= 1) return { scale: 1, scroll: false };
  const min = phone ? TerminalFitLimits.PHONE_MIN_SCALE : TerminalFitLimits.MIN_SCALE;
  return scale < min ? { scale: 1, scroll: true } : { scale: Math.floor(scale * 1000) / 1000, scroll: false };
}

export interface CueInput {
  /** The terminal's size now, and the size that would fit this page. */
  readonly cols: number;
  readonly rows: number;
  readonly fitCols: number | undefined;
  readonly fitRows: number | undefined;
  /** The kind of device the terminal is sized for, and this page's kind. */
  readonly sizedFor: DeviceKind | undefined;
  readonly device: DeviceKind;
}

/** The cue's words ("sized for your laptop"), or null when the terminal fits this page as it is. */
export function sizeCue({ cols, rows, fitCols, fitRows, sizedFor, device }: CueInput): string | null {
  if (fitCols === undefined || fitRows === undefined) return null;
  if (cols === fitCols && rows === fitRows) return null;
  if (!sizedFor) return "Sized for another screen";
  return sizedFor === device ? `Sized for your other ${sizedFor}` : `Sized for your ${sizedFor}`;
}
