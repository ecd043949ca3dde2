// Whether to say that the agent has not drawn anything yet. Some agents take a long time to show their
// first screen (offline, codex ~17 s, opencode up to a minute): a blank terminal marked "live" looks
// broken, so the page says what is going on until something appears.

/** When the hint shows and for how long a session can still be "starting". */
export const StartingHintLimits = {
  /** An agent that draws within this long needs no hint. */
  AFTER_MS: 5_000,
  /** Past this a blank screen is the agent's own doing (it cleared it), not a slow start. */
  UNTIL_MS: 3 * 60_000,
} as const;

/** The rows of a screen, as xterm.js's buffer gives them (browser-safe: no xterm import). */
export interface ScreenRows {
  readonly length: number;
  getLine(y: number): { translateToString(trimRight?: boolean): string } | undefined;
}

/** True when no row from `top` for `rows` rows holds anything but spaces. */
export function screenIsBlank(buffer: ScreenRows, top: number, rows: number): boolean {
  for (let y = top; y < top + rows && y < buffer.length; y++) {
    if (buffer.getLine(y)?.translateToString(true).trim()) return false;
  }
  return true;
}

/** The hint's sentence, or null when none is due. */
export function startingHint(agent: string, startedAt: string, now: number, drawn: boolean): string | null {
  if (drawn) return null;
  const age = now - Date.parse(startedAt);
  if (!(age >= StartingHintLimits.AFTER_MS && age < StartingHintLimits.UNTIL_MS)) return null;
  const seconds = Math.floor(age / 1000);
  return (
    `${agent} has not drawn anything yet (${seconds} s). Some agents take a minute to start, ` +
    "longer the first time or without a network; its screen appears here as soon as it draws one."
  );
}

/** The parts of an xterm.js Terminal `whenDrawn` reads. */
export interface DrawnSource {
  readonly rows: number;
  readonly buffer: { readonly active: ScreenRows & { readonly baseY: number } };
  onWriteParsed(listener: () => void): { dispose(): void };
}

/** Calls `drawn` once the terminal's screen first shows anything; returns how to stop watching. */
export function whenDrawn(term: DrawnSource, drawn: () => void): () => void {
  let watch: { dispose(): void } | undefined;
  const check = () => {
    const buffer = term.buffer.active;
    if (screenIsBlank(buffer, buffer.baseY, term.rows)) return false;
    watch?.dispose();
    drawn();
    return true;
  };
  if (!check()) watch = term.onWriteParsed(check);
  return () => watch?.dispose();
}
