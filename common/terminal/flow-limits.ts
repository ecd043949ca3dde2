// The flow-control limits of the terminal pipeline (server/transports/pty/flow-control.ts), shared with
// the browser, which acknowledges every ACK_EVERY_CHARS it has parsed.
// Bounds: the mirror holds at most ~REQUIRED_HIGH_WATERMARK_CHARS unparsed; a viewer is sent at most one
// snapshot plus MAX_LAG_CHARS plus one chunk beyond what it acknowledged; one silent viewer holds
// output paused for at most STALL_MS, and only when no other viewer is keeping up.

/** Flow-control limits, grouped; the unit is in each name, the invariant each keeps in its comment. */
export const FlowControl = {
  /**
   * Chars unacknowledged above which a consumer is "behind": the pty pauses when a required consumer,
   * or every counted viewer, is behind. Keeps the mirror's parse queue near this plus one chunk, far
   * under xterm's own 50 MB discard limit (its WriteBuffer throws "write data discarded" above that).
   */
  HIGH_WATERMARK_CHARS: 500_000,
  /**
   * Chars unacknowledged below which a consumer has caught up: the paused pty resumes, a stalled
   * viewer is resynced. The gap to the high watermark is hysteresis: no pause/resume on every chunk.
   * Unlike VS Code's renderer (5,000 over local IPC), our browser is a socket round trip plus a batch
   * window away: refilling takes several ms, and the low watermark must hold that much parsing work
   * (about 10,000 chars a ms in Chromium) or the browser idles at every resume; 100,000 with a
   * 500,000 high watermark measured best (docs/performance.md). A Ctrl-C then waits behind at most
   * ~500,000 chars of parsing, tens of ms.
   */
  LOW_WATERMARK_CHARS: 100_000,
  /**
   * Chars a viewer parses before it sends an ack (the browser's side of the contract; acks may also be
   * sent more often). Must be <= LOW_WATERMARK_CHARS: a viewer keeps up to ACK_EVERY_CHARS - 1 chars
   * unacknowledged, and that residue must already count as "below low" or the pty would never resume.
   * Half the low watermark: each ack is a socket.io message the page's main thread encodes, and that
   * thread is what a flood waits for. VS Code's 5,000 meant 10,000 acks per 50 MB, about a tenth of
   * the page's CPU in the throughput benchmark (docs/performance.md).
   */
  ACK_EVERY_CHARS: 50_000,
  /**
   * Milliseconds a viewer may stay behind (above high, not yet back below low) without acknowledging
   * anything before it is stalled (each ack restarts the count: a slow viewer is not a gone one).
   * Bounds how long one silent device can hold output paused when it is the only (or fastest) viewer,
   * so the agent keeps working while a phone sleeps; long enough to ride out a Wi-Fi hiccup.
   */
  STALL_MS: 2_000,
  /**
   * Chars of live output a viewer may have unacknowledged before it is stalled even while other
   * viewers keep output flowing. Bounds the server's send buffer per slow viewer; must be above the
   * high watermark (a viewer is allowed to be "behind" before it is "lagging").
   */
  MAX_LAG_CHARS: 1_000_000,
  /**
   * The high watermark of a required consumer (the mirror). The mirror parses on its own thread at a
   * lower priority (mirror-thread.ts): while the browser's parser and the server compete for the
   * cores it falls behind, and catches up once the burst is over. Pausing the agent at the viewers'
   * 500,000 would let the mirror's low priority set the pace of the whole pipeline. Bounds the
   * worker's queue (~2 bytes a char: 8 MB) and what a snapshot may wait for (~0.2 s of parsing).
   */
  REQUIRED_HIGH_WATERMARK_CHARS: 4_000_000,
  /**
   * Where a required consumer has caught up enough to resume a pty it paused. Close to its high
   * watermark: a Ctrl-C typed while the mirror holds the pty paused is answered only after the resume
   * (the new prompt waits in the pty behind the paused reads); a band of 500,000 chars is ~25 ms of
   * parsing, where a low watermark of 1,000,000 measured ~100 ms to the prompt.
   */
  REQUIRED_LOW_WATERMARK_CHARS: 3_500_000,
} as const;
