import { describe, expect, it, vi } from "vitest";
import { lineOf, tailStart } from "./line-tail.ts";
import { FEED_MS, TerminalWatch } from "./terminal-watch.ts";
import { DEFAULT_WAIT_RULE } from "./input-wait.ts";

/** The notifier's line readers as they read everything, char by char (terminal-watch.ts, input-wait.ts). */
class Reader {
  lines: string[] = [];
  current = "";
  carriage = false;
  constructor(
    private readonly maxLines: number,
    private readonly keepEmpty: boolean,
  ) {}
  /** Reads `text` from `start` on: past 0, the skipped part ended with a newline (a fresh line). */
  read(text: string, start = 0): this {
    if (start > 0) {
      this.current = "";
      this.carriage = false;
    }
    for (const ch of text.slice(start)) {
      if (ch === "\n") {
        if (this.keepEmpty || this.current.trim()) this.lines.push(this.current);
        if (this.lines.length > this.maxLines) this.lines.shift();
        this.current = "";
        this.carriage = false;
      } else if (ch === "\r") {
        this.carriage = true;
      } else {
        if (this.carriage) this.current = "";
        this.carriage = false;
        if (this.current.length < 400) this.current += ch;
      }
    }
    return this;
  }
  state() {
    return { lines: this.lines, current: this.current, carriage: this.carriage };
  }
}

/** A small seeded generator (mulberry32): the same texts on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ["\n", "\n", "\r", "\r\n", " ", "  ", "a", "word", "é", "🙂", "x".repeat(399), " ".repeat(420) + "y", "\n\n\n"];

function text(next: () => number, pieces: number): string {
  let out = "";
  for (let i = 0; i < pieces; i++) out += PIECES[Math.floor(next() * PIECES.length)]!;
  return out;
}

describe("tailStart", () => {
  it("finds the start of the last n lines", () => {
    expect(tailStart("a\nb\nc\nd", 2)).toBe(2);
    expect(tailStart("a\nb\nc\n", 2)).toBe(2);
    expect(tailStart("a\nb", 5)).toBe(0);
    expect(tailStart("abc", 1)).toBe(0);
    expect(tailStart("a\n\nb\nc", 1, (s) => s !== "")).toBe(3);
  });

  it("lineOf is the line a carriage return rewrites", () => {
    expect(lineOf("abc\rde", 400)).toBe("de");
    expect(lineOf("abc\r", 400)).toBe("abc");
    expect(lineOf("x".repeat(500), 400)).toHaveLength(400);
  });

  // Readers fed the tail of each chunk end up exactly as readers fed all of it, from any state.
  for (const [name, maxLines, keepEmpty] of [
    ["the waiting-input reader (6 lines, empty ones too)", 6, true],
    ["the digest's log (300 non-empty lines)", 300, false],
  ] as const) {
    it(name, () => {
      const next = random(maxLines);
      const kept = keepEmpty ? undefined : (s: string) => lineOf(s, 400).trim() !== "";
      for (let round = 0; round < 60; round++) {
        const whole = new Reader(maxLines, keepEmpty);
        const tail = new Reader(maxLines, keepEmpty);
        for (let chunk = 0; chunk < 4; chunk++) {
          const t = text(next, Math.floor(next() * (maxLines === 6 ? 40 : 1500)));
          whole.read(t);
          tail.read(t, tailStart(t, maxLines, kept));
          expect(tail.state()).toEqual(whole.state());
        }
      }
    });
  }
});

describe("TerminalWatch's log", () => {
  // Read back after every chunk, or only at the end: a flood's chunks then wait to be taken in as one.
  it.each([
    { name: "keeps what a char-by-char reader of every chunk keeps", seed: 11, chunks: 5, readEach: true },
    { name: "keeps the same when a flood's chunks are taken in together", seed: 12, chunks: 8, readEach: false },
  ])("$name", ({ seed, chunks, readEach }) => {
    const next = random(seed);
    for (let round = 0; round < 40; round++) {
      const watch = new TerminalWatch(
        DEFAULT_WAIT_RULE,
        () => undefined,
        () => round,
      );
      const reader = new Reader(300, false);
      const expected = () => (reader.current.trim() ? [...reader.lines, reader.current] : reader.lines);
      for (let chunk = 0; chunk < chunks; chunk++) {
        const t = text(next, Math.floor(next() * 1200));
        watch.feed(t);
        reader.read(t);
        if (readEach) expect(watch.linesSince(-1).map((l) => l.text)).toEqual(expected());
      }
      expect(watch.linesSince(-1).map((l) => l.text)).toEqual(expected());
      watch.dispose();
    }
  });
});

describe("TerminalWatch's verdicts", () => {
  it("tells of a bell once, when the output that rang it is taken in (within FEED_MS)", () => {
    vi.useFakeTimers();
    try {
      const verdicts: unknown[] = [];
      const watch = new TerminalWatch(DEFAULT_WAIT_RULE, (v) => verdicts.push(v));
      watch.feed("Ready to go on?");
      watch.feed("\x07");
      watch.feed("\x1b]0;title\x07"); // an OSC's terminator is not a bell
      expect(verdicts).toEqual([]);
      vi.advanceTimersByTime(FEED_MS);
      expect(verdicts).toEqual([{ kind: "waiting", reason: "bell", line: "Ready to go on?" }]);
      watch.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("says nothing of output fed after it was disposed", () => {
    vi.useFakeTimers();
    try {
      const verdicts: unknown[] = [];
      const watch = new TerminalWatch(DEFAULT_WAIT_RULE, (v) => verdicts.push(v));
      watch.feed("ding\x07");
      watch.dispose();
      vi.advanceTimersByTime(10_000);
      expect(verdicts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
