// A page's terminal frames on their way to its socket. Held until its attach is acknowledged (so the
// ack, which makes the page live, is not queued behind a 10,000-line replay), then sent in order; a
// replay for a page that asked for packed replays is deflated off the main thread (replay-wire.ts)
// and whatever comes after it waits for it. Output goes as it came: its way (a lane, the socket) encodes
// it when it is sent (terminal-realtime.ts). Flow control is unaffected: the session counts a frame
// when it hands it over, and the page acknowledges what it parsed.
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { PackedReplayFrame } from "./events.ts";

/** What an outbox sends: the session's frames as they came, a replay packed when the page asked. */
export type OutboxFrame = TerminalFrame | PackedReplayFrame;
import { packReplay } from "./replay-wire.ts";

type Item = OutboxFrame | Promise<OutboxFrame>;

export class TerminalOutbox {
  private readonly queue: Item[] = [];
  private open = false;
  private closed = false;
  private waiting = false;

  constructor(
    private readonly emit: (frame: OutboxFrame) => void,
    private readonly options: {
      packReplays: boolean;
      log: (line: string) => void;
      /** How a replay is packed (replay-wire.ts; a test gives its own to decide when packing ends). */
      pack?: (frame: Extract<TerminalFrame, { type: "replay" }>) => Promise<OutboxFrame>;
    },
  ) {}

  /** The session's `send`. */
  readonly push = (frame: TerminalFrame): void => {
    if (this.closed) return;
    if (frame.type === "replay" && this.options.packReplays) {
      // A packing failure (not expected) still delivers the replay, as text.
      this.queue.push((this.options.pack ?? packReplay)(frame).catch(() => frame));
    } else if (this.open && this.queue.length === 0) {
      this.emit(frame); // the live path: nothing held, nothing to order behind
      return;
    } else {
      this.queue.push(frame);
    }
    this.flush();
  };

  /** The attach was acknowledged: send what waited, and from now on as it comes. */
  release(): void {
    this.open = true;
    this.flush();
  }

  /** The attach failed (or the page left): nothing more is sent. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private flush(): void {
    while (this.open && !this.closed && this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head instanceof Promise) {
        if (this.waiting) return;
        this.waiting = true;
        void head.then((frame) => {
          this.waiting = false;
          if (this.closed) return;
          this.queue[0] = frame;
          this.flush();
        });
        return;
      }
      const frame: OutboxFrame = head;
      void this.queue.shift();
      try {
        this.emit(frame);
      } catch (error) {
        this.options.log(`Could not send a terminal frame: ${String(error)}`);
      }
    }
  }
}
