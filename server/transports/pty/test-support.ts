// Test helpers for the pty pipeline: the test tutor's path and environment, and a viewer that behaves
// like the browser (parses frames in a headless xterm and acks what it parsed) or like a slow or
// silent device. Used by the *.test.ts files beside it; not part of the server.
import path from "node:path";
import headless from "@xterm/headless";
import type { TerminalFrame } from "./terminal-frames.ts";
import type { TerminalSession } from "./terminal-session.ts";

const { Terminal } = headless;
type HeadlessTerminal = InstanceType<typeof Terminal>;

export const TEST_TUTOR = path.resolve(import.meta.dirname, "../../../e2e/fixtures/test-tutor.mjs");
export const PROMPT = "tutor> ";

/** The environment the tests give the tutor: this process's, as plain strings, plus extras. */
export function tutorEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return { ...env, TERM: "xterm-256color", ...extra };
}

export function tutorOptions(extra: { env?: Record<string, string>; cols?: number; rows?: number } = {}) {
  return {
    command: process.execPath,
    args: [TEST_TUTOR],
    cwd: path.dirname(TEST_TUTOR),
    env: tutorEnv(extra.env),
    cols: extra.cols ?? 80,
    rows: extra.rows ?? 24,
  };
}

/**
 * How a test viewer acknowledges: `parse` like the browser (after its xterm parsed the data),
 * `immediate` on receipt (a viewer that is never the bottleneck), `never` (a phone gone to sleep),
 * `manual` (the test calls ackPending).
 */
export type AckMode = "parse" | "immediate" | "never" | "manual";

/** Chars of recent text a viewer keeps for `waitFor` (it must not hold a whole flood in memory). */
const TAIL_CHARS = 256 * 1024;

export class TestViewer {
  readonly frames: TerminalFrame[] = [];
  /** Every output seq received, in order (numbers only: cheap even for a flood). */
  readonly outputSeqs: number[] = [];
  readonly replays: { seq: number; chars: number; cols: number; rows: number }[] = [];
  receivedChars = 0;
  ackedChars = 0;
  /** The most recent text received (replay and output data), for `waitFor`. */
  private tail = "";
  /** Absolute position (in chars of text received) of tail[0]. */
  private tailStart = 0;
  private unackedManual = 0;
  readonly terminal: HeadlessTerminal | undefined;

  constructor(
    readonly id: string,
    private readonly session: TerminalSession,
    private readonly ackMode: AckMode,
    private readonly options: { keepFrames?: boolean } = {},
  ) {
    if (ackMode === "parse") {
      this.terminal = new Terminal({ cols: 80, rows: 24, scrollback: 10_000, allowProposedApi: true });
    }
  }

  /** Absolute position of the end of the text received so far; pass to waitFor to look only after it. */
  get position(): number {
    return this.tailStart + this.tail.length;
  }

  readonly send = (frame: TerminalFrame): void => {
    if (this.options.keepFrames ?? true) this.frames.push(frame);
    if (frame.type === "resize") {
      this.terminal?.resize(frame.cols, frame.rows);
      return;
    }
    if (frame.type === "detached") return;
    if (frame.type === "replay") {
      this.replays.push({ seq: frame.seq, chars: frame.data.length, cols: frame.cols, rows: frame.rows });
      if (this.terminal) {
        this.terminal.reset();
        this.terminal.resize(frame.cols, frame.rows);
      }
    } else {
      this.outputSeqs.push(frame.seq);
    }
    this.receivedChars += frame.data.length;
    this.appendText(frame.data);
    this.acknowledge(frame.data);
  };

  attach(opts?: { sinceSeq?: number }): Promise<void> {
    return this.session.attach(this.id, this.send, opts);
  }

  /** The last output seq received, or the replay's seq if no output followed it. */
  get lastSeq(): number | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i]!;
      if (frame.type !== "resize") return frame.seq;
    }
    return undefined;
  }

  /** Acks whatever a `manual` viewer has received and not acked. */
  ackPending(maxChars = Number.POSITIVE_INFINITY): number {
    const chars = Math.min(this.unackedManual, maxChars);
    this.unackedManual -= chars;
    if (chars > 0) this.ack(chars);
    return chars;
  }

  get pendingManualChars(): number {
    return this.unackedManual;
  }

  text(from = 0): string {
    return this.tail.slice(Math.max(0, from - this.tailStart));
  }

  /** Resolves when `pattern` appears in text received after `from`; rejects after `timeoutMs`. */
  async waitFor(pattern: RegExp | string, opts: { from?: number; timeoutMs?: number } = {}): Promise<void> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    const matches = () => {
      const text = this.text(opts.from ?? 0);
      return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
    };
    while (!matches()) {
      if (Date.now() > deadline) {
        throw new Error(`Viewer ${this.id} did not see ${String(pattern)}; last text: ${JSON.stringify(this.text().slice(-300))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** The viewer's screen (parse mode): every line of the active buffer, right-trimmed. */
  screenLines(): string[] {
    const buffer = this.terminal?.buffer.active;
    if (!buffer) return [];
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
    return lines;
  }

  /** Resolves once the viewer's xterm has parsed everything it was given. */
  flush(): Promise<void> {
    const terminal = this.terminal;
    return terminal ? new Promise((resolve) => terminal.write("", resolve)) : Promise.resolve();
  }

  dispose(): void {
    this.terminal?.dispose();
  }

  private appendText(data: string): void {
    this.tail += data;
    if (this.tail.length > TAIL_CHARS * 2) {
      const drop = this.tail.length - TAIL_CHARS;
      this.tail = this.tail.slice(drop);
      this.tailStart += drop;
    }
  }

  private acknowledge(data: string): void {
    switch (this.ackMode) {
      case "parse":
        this.terminal!.write(data, () => this.ack(data.length));
        return;
      case "immediate":
        setImmediate(() => this.ack(data.length));
        return;
      case "manual":
        this.unackedManual += data.length;
        return;
      case "never":
        return;
    }
  }

  private ack(chars: number): void {
    this.ackedChars += chars;
    this.session.ack(this.id, chars);
  }
}

/** Asserts a viewer's output seqs are contiguous from `first` (no gap, no duplicate). */
export function gapsAndDuplicates(seqs: readonly number[], first: number): string[] {
  const problems: string[] = [];
  let expected = first;
  for (const seq of seqs) {
    if (seq !== expected) problems.push(seq < expected ? `duplicate ${seq}` : `gap ${expected}..${seq - 1}`);
    expected = seq + 1;
  }
  return problems;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 5 ms until it holds; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for the terminal`);
    await delay(5);
  }
}
