// A terminal session's mirror, kept going: every output chunk goes to it through the reply gate (an
// answer the mirror gives after the program that asked has exited is dropped, not typed into the next
// one), and a mirror whose worker failed is made again from the session's recent output. Knows nothing
// of viewers or flow control; terminal-session.ts composes it.
import type { MirrorThread } from "./mirror-thread.ts";
import type { RingFrame } from "./replay-ring.ts";
import type { TerminalSize } from "./resize-policy.ts";
import type { ScreenPreview } from "./screen-preview.ts";
import type { MirrorSnapshot, SerializeOptions } from "./mirror-contract.ts";
import { coloursOf } from "./terminal-colours.ts";
import { foregroundGroupOf, ReplyGate } from "./reply-gate.ts";

export const MirrorKeeperLimits = {
  /**
   * Times the mirror is made again after its worker failed, rebuilt from the replay ring. A bound,
   * since output that crashes the worker is in that ring and may crash the next one too.
   */
  RESTARTS: 2,
} as const;

/** Makes a mirror of the given size (tests: one whose worker fails). */
export type MirrorFactory = (size: TerminalSize, log: (message: string) => void) => MirrorThread;

export interface MirrorKeeperOptions {
  readonly make: MirrorFactory;
  readonly log: (message: string) => void;
  /** The program's process: its terminal's foreground group decides whether a late answer goes through. */
  readonly pid: number;
  /** Writes one of the mirror's answers to the program's input. */
  readonly answer: (data: string) => void;
  /** Whether answers may go to the program at all: false once it has exited or the session is closed. */
  readonly listening: () => boolean;
  /** The terminal's size now: a new mirror is made at it. */
  readonly size: () => TerminalSize;
  /** The session's recent output and size changes, oldest first: what a rebuilt mirror is given. */
  readonly recent: () => Iterable<RingFrame>;
}

export class MirrorKeeper {
  private readonly gate: ReplyGate;
  private mirror: MirrorThread;
  private restarts = 0;
  private dark: boolean | undefined;
  private disposed = false;

  constructor(private readonly options: MirrorKeeperOptions) {
    this.gate = new ReplyGate(() => foregroundGroupOf(options.pid));
    this.mirror = this.adopt(options.make(options.size(), options.log));
  }

  /** Chars written and not yet parsed. */
  get pendingChars(): number {
    return this.mirror.pendingChars;
  }

  /** One output chunk, in order; `parsed` runs once the mirror has parsed it (or could not). */
  write(data: string, parsed: () => void): void {
    this.gate.sawOutput(data);
    this.mirror.write(data, parsed);
  }

  resize(cols: number, rows: number): void {
    this.mirror.resize(cols, rows);
  }

  /** The colour scheme queries are answered with from here on (the active device's). */
  setDark(dark: boolean): void {
    if (dark === this.dark) return;
    this.dark = dark;
    this.mirror.setColours(coloursOf(dark));
  }

  snapshot(options?: SerializeOptions): Promise<MirrorSnapshot> {
    return this.mirror.snapshot(options);
  }

  preview(): Promise<ScreenPreview> {
    return this.mirror.preview();
  }

  dispose(): void {
    this.disposed = true;
    this.mirror.dispose();
  }

  private adopt(mirror: MirrorThread): MirrorThread {
    mirror.onReply = (data) => {
      // The mirror's answer to a query in the output: the program's input, and nobody's activity.
      if (!this.options.listening() || mirror !== this.mirror) return;
      if (this.gate.admits()) this.options.answer(data);
      else this.options.log(`Dropped a terminal answer that came after the program that asked had finished (${JSON.stringify(data)})`);
    };
    mirror.onFailure = (reason) => this.restart(mirror, reason);
    if (this.dark !== undefined) mirror.setColours(coloursOf(this.dark));
    return mirror;
  }

  /**
   * The mirror's worker failed: without a mirror no page can be shown the terminal again. A new one is
   * made and given the output still in the replay ring, which brings back the screen and the recent
   * scrollback; older scrollback is lost. Its answers to queries in that old output are not sent (the
   * program asked long ago).
   */
  private restart(failed: MirrorThread, reason: string): void {
    if (this.disposed || failed !== this.mirror) return;
    const { log } = this.options;
    if (this.restarts >= MirrorKeeperLimits.RESTARTS) {
      log(`The terminal's mirror failed again (${reason}); not made again: pages can no longer be shown this terminal`);
      return;
    }
    this.restarts++;
    const size = this.options.size();
    const mirror = this.adopt(this.options.make(size, log));
    const replies = mirror.onReply;
    mirror.onReply = undefined;
    let chars = 0;
    for (const frame of this.options.recent()) {
      if (frame.type === "output") {
        mirror.write(frame.data);
        chars += frame.data.length;
      } else mirror.resize(frame.cols, frame.rows);
    }
    log(`The terminal's mirror failed (${reason}); made it again from the last ${chars} chars of output`);
    if (mirror.cols !== size.cols || mirror.rows !== size.rows) mirror.resize(size.cols, size.rows);
    void mirror.preview().then(
      () => (mirror.onReply = replies), // from here on, answers are to new output
      () => undefined,
    );
    failed.dispose();
    this.mirror = mirror;
  }
}
