// "Is the tutor waiting for me?" for terminal agents, which cannot say so: a bell, or output that has
// stopped for a few seconds after a question with the cursor on an input line. A run of output that
// lasted long and then stopped without a question is "finished". Pure: the caller feeds output and
// asks at a time of its choosing (terminal-watch.ts). Per-agent rules: notify-config.ts.
import { tailStart } from "./line-tail.ts";

export interface WaitRule {
  /** A bell (BEL outside an escape sequence) means "waiting". */
  readonly bell: boolean;
  /** Seconds of silence after which the screen is judged. */
  readonly idleSeconds: number;
  /** A question: matched against the last few non-empty lines before the cursor's line. */
  readonly question: RegExp;
  /** An input line: matched against the cursor's line (the last one written). */
  readonly prompt: RegExp;
  /** A run of output at least this long that then stops (without a question) is "finished"; 0: never. */
  readonly longRunSeconds: number;
}

export const DEFAULT_WAIT_RULE: WaitRule = {
  bell: true,
  idleSeconds: 5,
  // Ends with a question mark, possibly followed by the choices: "Overwrite? (y/n)", "Continue? [Y/n]".
  question: /\?(?:\s*[([][^)\]]{1,16}[)\]])?\s*$/,
  // An empty line, a shell- or REPL-like prompt (> ❯ › $ % #, "name> ", "Answer:"), or a y/n choice.
  prompt: /^\s*$|^\s*\S{0,24}\s?[>❯›»$%#:]\s*$|\((?:y\/n|yes\/no)\)\s*$|\[[yY]\/[nN]\]\s*$/,
  longRunSeconds: 60,
};

/** Lines kept to judge the screen: the cursor's line and the ones just before it. */
export const TAIL_LINES = 6;
/** Longest line kept, in characters (a line without a newline can grow without end). */
const LINE_MAX_CHARS = 400;

export type WaitVerdict = { kind: "waiting"; reason: "bell" | "question"; line: string } | { kind: "finished" } | null;

export class InputWaitDetector {
  private lines: string[] = [];
  private current = "";
  private carriage = false;
  private lastOutputAt: number | null = null;
  private runStartedAt: number | null = null;
  /** Judged already since the last output: one verdict per silence. */
  private judged = true;

  constructor(private readonly rule: WaitRule) {}

  /**
   * Output arrived at `now` (ms): its plain text (terminal-scan.ts) and how many bells it rang.
   * `fresh`: the text is a batch's last lines only, and what came before it ended with a newline.
   */
  output(text: string, bells: number, now: number, opts: { fresh?: boolean } = {}): WaitVerdict {
    if (this.runStartedAt === null || (this.lastOutputAt !== null && now - this.lastOutputAt >= this.rule.idleSeconds * 1000)) {
      this.runStartedAt = now;
    }
    this.lastOutputAt = now;
    this.judged = false;
    if (opts.fresh) {
      this.current = "";
      this.carriage = false;
    }
    this.append(text);
    if (bells > 0 && this.rule.bell) {
      // A bell answers for this silence: no second "waiting" for the same question.
      this.judged = true;
      return { kind: "waiting", reason: "bell", line: this.lastQuestion() ?? this.lastText() };
    }
    return null;
  }

  /** When to call `check` next (ms since the epoch), or null when nothing is pending. */
  dueAt(): number | null {
    return this.judged || this.lastOutputAt === null ? null : this.lastOutputAt + this.rule.idleSeconds * 1000;
  }

  /** Judges the screen once output has been silent for idleSeconds; null before that or when judged. */
  check(now: number): WaitVerdict {
    const due = this.dueAt();
    if (due === null || now < due) return null;
    this.judged = true;
    const question = this.lastQuestion();
    if (question !== null && this.rule.prompt.test(this.current)) return { kind: "waiting", reason: "question", line: question };
    const ranMs = (this.lastOutputAt ?? now) - (this.runStartedAt ?? now);
    if (this.rule.longRunSeconds > 0 && ranMs >= this.rule.longRunSeconds * 1000) return { kind: "finished" };
    return null;
  }

  /** The cursor's line, for tests and logs. */
  get cursorLine(): string {
    return this.current;
  }

  private lastQuestion(): string | null {
    // The question may be on the cursor's own line ("Continue? ") or on one of the lines just above.
    const candidates = [this.current, ...this.lines.slice().reverse()].map((l) => l.trim()).filter((l) => l.length > 0);
    for (const line of candidates.slice(0, 3)) if (this.rule.question.test(line)) return line;
    return null;
  }

  /** The last line with words on it before the cursor's (the cursor's line is often a bare prompt). */
  private lastText(): string {
    return (
      [...this.lines]
        .reverse()
        .find((l) => l.trim().length > 0)
        ?.trim() ?? this.current.trim()
    );
  }

  private append(all: string): void {
    // Only the last TAIL_LINES lines and the cursor's are kept: a flood's earlier lines are skipped unread.
    const start = tailStart(all, TAIL_LINES);
    const text = all.slice(start);
    if (start > 0) {
      // The skipped part ended with a newline: a fresh line.
      this.current = "";
      this.carriage = false;
    }
    for (const ch of text) {
      if (ch === "\r") {
        this.carriage = true;
      } else if (ch === "\n") {
        this.lines.push(this.current);
        if (this.lines.length > TAIL_LINES) this.lines.shift();
        this.current = "";
        this.carriage = false;
      } else {
        // A carriage return then text rewrites the line (spinners, progress bars).
        if (this.carriage) this.current = "";
        this.carriage = false;
        if (this.current.length < LINE_MAX_CHARS) this.current += ch;
      }
    }
  }
}
