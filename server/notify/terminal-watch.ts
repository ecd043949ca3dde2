// Watches one terminal session's output for the notifier: bells and "waiting for input" (input-wait.ts)
// with a timer for the silence, and a short log of the lines printed, for the away digest. Output is
// taken in every FEED_MS, not chunk by chunk: under a flood the log then walks the last lines of the
// whole batch once instead of every chunk's (docs/performance.md, round 5), and what it keeps is the same.
import { InputWaitDetector, TAIL_LINES, type WaitRule, type WaitVerdict } from "./input-wait.ts";
import { TerminalScanner, type TailWanted } from "./terminal-scan.ts";
import { lineOf } from "./line-tail.ts";

/** Lines kept for the away digest: the last ones printed. */
const LOG_LINES = 300;
/** Longest line kept, in characters. */
const LINE_MAX_CHARS = 400;
/** Milliseconds output waits to be taken in with what follows it: how late a bell can be noticed. */
export const FEED_MS = 50;
/**
 * What the log and the detector keep of a batch: the log's last LOG_LINES lines with words on them,
 * which include the detector's last TAIL_LINES lines. The scanner reads no text before those.
 */
const TAIL: TailWanted = { lines: Math.max(LOG_LINES, TAIL_LINES), kept: (segment) => lineOf(segment, LINE_MAX_CHARS).trim() !== "" };

export class TerminalWatch {
  private readonly scanner = new TerminalScanner();
  private readonly detector: InputWaitDetector;
  private readonly lines: { at: number; text: string }[] = [];
  private current = "";
  private carriage = false;
  private timer: NodeJS.Timeout | undefined;
  /** Output not taken in yet, and when the last of it came. */
  private pending: string[] = [];
  private pendingAt = 0;
  private feedTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    rule: WaitRule,
    private readonly onVerdict: (verdict: NonNullable<WaitVerdict>) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.detector = new InputWaitDetector(rule);
  }

  /** Output as it comes: taken in within FEED_MS, together with whatever comes meanwhile. */
  feed(data: string): void {
    if (this.disposed) return;
    this.pending.push(data);
    this.pendingAt = this.now();
    this.feedTimer ??= setTimeout(() => this.takeIn(), FEED_MS);
  }

  /** Lines printed after `since` (ms), the line being written included. */
  linesSince(since: number): { at: number; text: string }[] {
    this.takeIn();
    const out = this.lines.filter((l) => l.at > since);
    return this.current.trim() ? [...out, { at: this.now(), text: this.current }] : out;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.feedTimer) clearTimeout(this.feedTimer);
    this.pending = [];
  }

  /** Takes in the output fed since the last time: scans it, logs its lines, asks the detector. */
  private takeIn(): void {
    if (this.feedTimer) clearTimeout(this.feedTimer);
    this.feedTimer = undefined;
    if (this.disposed || this.pending.length === 0) return;
    const output = this.pending;
    this.pending = [];
    const at = this.pendingAt;
    const { text, bells, fresh } = this.scanner.scan(output, TAIL);
    if (fresh) {
      // What came before `text` ended with a newline, and its lines are pushed out by those in `text`.
      this.current = "";
      this.carriage = false;
    }
    this.log(text, at);
    const verdict = this.detector.output(text, bells, at, { fresh });
    if (verdict) this.onVerdict(verdict);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const due = this.detector.dueAt();
    if (due === null) return;
    this.timer = setTimeout(
      () => {
        const verdict = this.detector.check(this.now());
        if (verdict) this.onVerdict(verdict);
      },
      Math.max(0, due - this.now()) + 10,
    );
    this.timer.unref();
  }

  /** Logs the lines `text` ends, last first and only as many as the log keeps: a flood is megabytes. */
  private log(text: string, at: number): void {
    const last = text.lastIndexOf("\n");
    if (last === -1) {
      this.current = this.continueLine(text);
      return;
    }
    const ended: string[] = [];
    let end = last;
    while (ended.length < LOG_LINES) {
      const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
      // The chunk's first segment continues the cursor's line; every later one starts a fresh line.
      const line = start === 0 ? this.continueLine(text.slice(0, end)) : lineOf(text.slice(start, end), LINE_MAX_CHARS);
      if (line.trim()) ended.push(line);
      if (start === 0) break;
      end = start - 1;
    }
    for (let i = ended.length - 1; i >= 0; i--) this.lines.push({ at, text: ended[i]! });
    if (this.lines.length > LOG_LINES) this.lines.splice(0, this.lines.length - LOG_LINES);
    this.current = "";
    this.carriage = false;
    this.current = this.continueLine(text.slice(last + 1));
  }

  /**
   * The cursor's line after `segment` (text without a newline) is written on it: a carriage return
   * then text rewrites the line (spinners, prompts redrawn); at most LINE_MAX_CHARS are kept.
   */
  private continueLine(segment: string): string {
    if (segment === "") return this.current;
    const rewrites = segment.replace(/\r+$/, "").includes("\r");
    const endsWithCarriage = segment.endsWith("\r");
    const rest = lineOf(segment, LINE_MAX_CHARS);
    // No text after a carriage return in this segment: what was there stays (with the return pending).
    const line = rewrites || (this.carriage && rest !== "") ? rest : lineOf(this.current + rest, LINE_MAX_CHARS);
    this.carriage = endsWithCarriage || (this.carriage && rest === "");
    return line;
  }
}
