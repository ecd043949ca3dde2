// The page's acknowledgements of parsed output (flow-control.ts on the server): one ack per
// FlowControl.ACK_EVERY_CHARS parsed, and whatever is left at least every ACK_FLUSH_MS, so the server
// neither waits on a page that has caught up nor gets a message per chunk.

export const AckPacerLimits = {
  /** Chars parsed and not yet acknowledged are sent at least this often. */
  ACK_FLUSH_MS: 100,
} as const;

export class AckPacer {
  private unacked = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    /** Sends one ack of `chars` (on the lane, or the socket). */
    private readonly send: (chars: number) => void,
    private readonly everyChars: number,
  ) {
    this.timer = setInterval(() => this.flush(), AckPacerLimits.ACK_FLUSH_MS);
  }

  /** `chars` more were parsed: sent at once when enough are waiting. */
  parsed(chars: number): void {
    this.unacked += chars;
    if (this.unacked >= this.everyChars) this.flush();
  }

  flush(): void {
    if (this.unacked === 0) return;
    const chars = this.unacked;
    this.unacked = 0;
    this.send(chars);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
