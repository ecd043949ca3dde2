// The size cue, shown only once it has held for a moment. On the active device the cue is true only
// while its own resize is on its way to the server; shown then, its line takes height from the terminal,
// which changes the size that fits, which sends another resize: a loop that can keep the terminal
// jumping (seen on a busy machine). Hiding is at once; showing waits until the words have settled.

export class SettledCue {
  private shown: string | null = null;
  private wanted: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly settleMs: number,
    private readonly show: (cue: string | null) => void,
  ) {}

  /** The cue as the terminal's size stands now (null: it fits this page). */
  set(cue: string | null): void {
    this.wanted = cue;
    if (cue === this.shown) return this.stopWaiting();
    if (cue === null) {
      this.stopWaiting();
      return this.apply(null);
    }
    // Different words while one is shown (the other device changed): no need to wait again.
    if (this.shown !== null) return this.apply(cue);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.wanted !== null) this.apply(this.wanted);
    }, this.settleMs);
  }

  dispose(): void {
    this.stopWaiting();
  }

  private apply(cue: string | null): void {
    this.shown = cue;
    this.show(cue);
  }

  private stopWaiting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
