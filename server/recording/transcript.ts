// The text transcript of a recording: what a person reading along would have kept. A headless xterm
// replays the cast; a line is written down when it scrolls off the top, and a whole screen is written
// down just before something erases it (clear, ED 2/3, a reset, a resize) or when a full-screen
// program's screen is left or redrawn. So `clear`, vim, less and top do not erase what was said.
// Each piece carries the time the player shows it (the last moment it was fully on screen).
import headless from "@xterm/headless";
import type { Terminal as TerminalType } from "@xterm/headless";
import { parseResize, type CastEvent } from "./asciicast.ts";
import type { SegmentKind, TranscriptSegment } from "../../common/transcript-text.ts";

const { Terminal } = headless;

export { clock, transcriptText, type SegmentKind, type TranscriptSegment } from "../../common/transcript-text.ts";

export const TranscriptLimits = {
  /**
   * Lines the replay terminal keeps above the screen. Kept full, so xterm recycles the line that falls
   * off the top for the next one instead of allocating a new one for every line of a flood (~1.8 kB at
   * 150 columns, plus its objects). Lines are written down after every piece, long before they fall
   * off; a live session's index keeps this terminal for as long as the session lasts (3.5 MiB of cells
   * at 150 columns).
   */
  SCROLLBACK: 2_048,
  /** Chars fed to the terminal at once: at most this many new lines per piece. */
  WRITE_CHARS: 1_024,
  /** Rows of a wrapped line held back until the line has left the screen whole (flushScrolled). */
  HELD_ROWS: 1_024,
  /** Chars of lines written down at the same moment kept as one piece (each piece is at least one search document). */
  SEGMENT_CHARS: 4_096,
} as const;

/**
 * The normal buffer's list of lines, which xterm does not expose: its trim event says how many lines
 * left the top (recycled when the scrollback is full, erased by ED 3, dropped by a reflow).
 */
interface LineList {
  onTrim(listener: (amount: number) => void): { dispose(): void };
}
type TerminalInternals = { _core: { buffers: { normal: { lines: LineList } } } };

const ALT_SCREEN_MODES = new Set([47, 1047, 1049]);

export class TranscriptBuilder {
  private readonly term: TerminalType;
  private readonly out: TranscriptSegment[] = [];
  /** Lines of the normal buffer, from its top, already written down (lines trimmed off the top move it up). */
  private emitted = 0;
  /** The normal buffer's lines this builder counts trims of (a reset replaces them). */
  private lines: LineList | undefined;
  private trimWatch: { dispose(): void } | undefined;
  /** The time of the event before the one being replayed: its screen was shown until now. */
  private shownMs = 0;
  private lastMs = 0;
  private lastScreen = "";
  private finished = false;

  constructor(cols: number, rows: number) {
    this.term = new Terminal({ cols, rows, scrollback: TranscriptLimits.SCROLLBACK, allowProposedApi: true });
    const parser = this.term.parser;
    parser.registerCsiHandler({ final: "J" }, (params) => this.beforeErase(Number(params[0] ?? 0)));
    parser.registerCsiHandler({ prefix: "?", final: "l" }, (params) => this.beforeModeReset(params));
    parser.registerCsiHandler({ prefix: "?", final: "h" }, (params) => this.beforeModeReset(params));
    parser.registerEscHandler({ final: "c" }, () => this.beforeErase(2));
    this.watchTrims();
  }

  /**
   * Replays events in order (output and resizes; markers are not text). Everything is queued at once:
   * xterm runs a write's callback right after that piece is parsed and before the next piece is, so the
   * time and the lines that scrolled off are still taken piece by piece, but without a timer's wait
   * between pieces (awaiting each one left the thread idle for ~1 ms per piece).
   */
  feed(events: readonly CastEvent[]): Promise<void> {
    let done: Promise<void> = Promise.resolve();
    for (const event of events) {
      const ms = Math.round(event.time * 1000);
      done = this.inOrder("", () => {
        this.shownMs = this.lastMs;
        this.lastMs = ms;
      });
      if (event.code === "o") {
        for (const piece of pieces(event.data)) {
          done = this.inOrder(piece, () => {
            this.watchTrims();
            this.flushScrolled();
          });
        }
      } else if (event.code === "r") {
        const size = parseResize(event.data);
        if (size) {
          done = this.inOrder("", () => {
            if (size.cols !== this.term.cols || size.rows !== this.term.rows) this.resize(size.cols, size.rows);
          });
        }
      }
    }
    return done;
  }

  /** Pieces written down since the last call. */
  take(): TranscriptSegment[] {
    return this.out.splice(0, this.out.length);
  }

  /** Writes down what is still on screen at the end; returns the pieces not yet taken. */
  finish(): TranscriptSegment[] {
    if (!this.finished) {
      this.finished = true;
      this.shownMs = this.lastMs;
      this.flushScrolled();
      if (this.term.buffer.active.type === "alternate") this.captureScreen();
      this.captureNormalScreen();
      this.trimWatch?.dispose();
      this.term.dispose();
    }
    return this.take();
  }

  /** Parses `data` (may be empty) after everything queued before it, then runs `then`. */
  private inOrder(data: string, then: () => void): Promise<void> {
    return new Promise((resolve) =>
      this.term.write(data, () => {
        then();
        resolve();
      }),
    );
  }

  /**
   * Follows the normal buffer's trims, so `emitted` keeps pointing below the lines written down. A
   * reset (RIS) replaced the buffer: everything in the old one was written down just before it.
   */
  private watchTrims(): void {
    const lines = (this.term as unknown as TerminalInternals)._core.buffers.normal.lines;
    if (lines === this.lines) return;
    if (this.lines) this.emitted = 0;
    this.trimWatch?.dispose();
    this.lines = lines;
    this.trimWatch = lines.onTrim((amount) => {
      this.emitted -= amount;
    });
  }

  private resize(cols: number, rows: number): void {
    // Reflow moves lines between screen and scrollback: write the screen down as it was shown. Under a
    // full-screen program the normal screen is not written down here, so rows held back above it are.
    this.flushScrolled(this.term.buffer.active.type === "alternate");
    if (this.term.buffer.active.type === "alternate") this.captureScreen();
    else this.captureNormalScreen();
    this.term.resize(cols, rows);
    this.emitted = this.term.buffer.normal.baseY;
  }

  /** CSI J (and RIS as 2): the screen or the scrollback is about to be erased. */
  private beforeErase(mode: number): boolean {
    this.watchTrims();
    if (this.term.buffer.active.type === "alternate") {
      if (mode === 2 || mode === 3) this.captureScreen();
      return false;
    }
    // ED 3 then trims the scrollback (written down here): `emitted` follows through the trim event.
    this.flushScrolled(mode === 3);
    if (mode === 2) this.captureNormalScreen();
    return false;
  }

  /** DECSET/DECRST of the alternate screen: leaving it (or entering it again) ends its screen. */
  private beforeModeReset(params: (number | number[])[]): boolean {
    if (this.term.buffer.active.type === "alternate" && params.some((p) => typeof p === "number" && ALT_SCREEN_MODES.has(p)))
      this.captureScreen();
    return false;
  }

  /**
   * Lines that scrolled off the normal screen since last time. A line whose wrapped rows have not all
   * left the screen yet is held back (at most HELD_ROWS of it), so it is written down whole, not cut
   * where a piece of output happened to end; `all` writes everything down (the scrollback is about to
   * be erased).
   */
  private flushScrolled(all = false): void {
    const buffer = this.term.buffer.normal;
    // Below 0 only if lines fell off unread, which WRITE_CHARS + HELD_ROWS <= SCROLLBACK rules out.
    this.emitted = Math.max(0, this.emitted);
    let end = buffer.baseY;
    if (!all) {
      const floor = Math.max(this.emitted, end - TranscriptLimits.HELD_ROWS);
      while (end > floor && buffer.getLine(end)?.isWrapped) end--;
    }
    if (end > this.emitted) {
      this.push("lines", this.readLines(buffer, this.emitted, end));
      this.emitted = end;
    }
  }

  /** The normal screen's lines not yet written down, with any held above it (trailing blank lines left out). */
  private captureNormalScreen(): void {
    const buffer = this.term.buffer.normal;
    this.push("lines", this.readLines(buffer, Math.max(this.emitted, 0), buffer.baseY + this.term.rows));
    // Rows held back above the screen (flushScrolled) are written down now too.
    this.emitted = Math.max(this.emitted, buffer.baseY);
  }

  /** The alternate (full-screen) screen, unless it shows exactly what was written down last time. */
  private captureScreen(): void {
    const buffer = this.term.buffer.alternate;
    const text = this.readLines(buffer, 0, this.term.rows);
    if (!text || text === this.lastScreen) return;
    this.lastScreen = text;
    this.push("screen", text);
  }

  /** Lines written down at the same time join the last piece (up to SEGMENT_CHARS): one per stretch, not per write. */
  private push(kind: SegmentKind, text: string): void {
    if (!text) return;
    const last = this.out.at(-1);
    if (
      kind === "lines" &&
      last?.kind === "lines" &&
      last.atMs === this.shownMs &&
      last.text.length + text.length < TranscriptLimits.SEGMENT_CHARS
    ) {
      this.out[this.out.length - 1] = { ...last, text: `${last.text}\n${text}` };
    } else {
      this.out.push({ atMs: this.shownMs, kind, text });
    }
  }

  /** Lines [from, to) as text: wrapped rows joined, trailing spaces and trailing blank lines dropped. */
  private readLines(buffer: TerminalType["buffer"]["active"], from: number, to: number): string {
    const lines: string[] = [];
    for (let y = from; y < to; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      // A row that continues on the next keeps its trailing spaces (they are the words' gap).
      const text = buffer.getLine(y + 1)?.isWrapped ? line.translateToString(false) : line.translateToString(true).trimEnd();
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
    return lines.join("\n");
  }
}

/** Output in pieces of at most WRITE_CHARS, never splitting a surrogate pair. */
function* pieces(data: string): Generator<string> {
  const size = TranscriptLimits.WRITE_CHARS;
  let at = 0;
  while (at < data.length) {
    let end = Math.min(data.length, at + size);
    if (end < data.length && /[\uDC00-\uDFFF]/.test(data[end]!)) end--;
    yield data.slice(at, end);
    at = end;
  }
}
