// Watches one terminal session's output for the notifier: bells and "waiting for input" (input-wait.ts)
// with a timer for the silence, and a short log of the lines printed, for the away digest.
import { InputWaitDetector, type WaitRule, type WaitVerdict } from "./input-wait.ts";
import { TerminalScanner } from "./terminal-scan.ts";
import { lineOf } from "./line-tail.ts";

/** Lines kept for the away digest: the last ones printed. */
const LOG_LINES = 300;
/** Longest line kept, in characters. */
const LINE_MAX_CHARS = 400;

export class TerminalWatch {
  private readonly scanner = new TerminalScanner();
  private readonly detector: InputWaitDetector;
  private readonly lines: { at: number; text: string }[] = [];
  private current = "";
  private carriage = false;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    rule: WaitRule,
    private readonly onVerdict: (verdict: NonNullable<WaitVerdict>) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.detector = new InputWaitDetector(rule);
  }

  feed(data: string): void {
    if (this.disposed) return;
    const at = this.now();
    const { text, bells } = this.scanner.scan(data);
    this.log(text, at);
    const verdict = this.detector.output(text, bells, at);
    if (verdict) this.onVerdict(verdict);
    this.schedule();
  }

  /** Lines printed after `since` (ms), the line being written included. */
  linesSince(since: number): { at: number; text: string }[] {
    const out = this.lines.filter((l) => l.at > since);
    return this.current.trim() ? [...out, { at: this.now(), text: this.current }] : out;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
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
