import { describe, expect, it } from "vitest";
import { TerminalScanner, type TailWanted } from "./terminal-scan.ts";
import { lineOf } from "./line-tail.ts";

/** The scanner as it was, char by char: the fast one must find the same text and bells. */
/** A small seeded generator (a linear congruential one): the same output on every run. */
function seeded(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function reference(chunks: string[]): { bells: number; text: string } {
  let state = "ground";
  let bells = 0;
  let text = "";
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (state === "ground") {
        if (code === 0x1b) state = "esc";
        else if (code === 0x07) bells++;
        else if (code === 0x0a || code === 0x0d) text += chunk[i];
        else if (code === 0x9b) state = "csi";
        else if (code === 0x9d || code === 0x90) state = "string";
        else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)) text += chunk[i];
      } else if (state === "esc") {
        if (code === 0x5b) state = "csi";
        else if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) state = "string";
        else if (code >= 0x20 && code <= 0x2f) state = "esc";
        else state = "ground";
      } else if (state === "csi") {
        if (code >= 0x40 && code <= 0x7e) state = "ground";
        else if (code === 0x1b) state = "esc";
      } else if (state === "string") {
        if (code === 0x07 || code === 0x9c) state = "ground";
        else if (code === 0x1b) state = "string-esc";
      } else {
        state = code === 0x5c ? "ground" : code === 0x5b ? "csi" : "esc";
      }
    }
  }
  return { bells, text };
}

describe("TerminalScanner", () => {
  const cases: { name: string; chunks: string[]; bells: number; text: string }[] = [
    { name: "plain text", chunks: ["hello\r\nworld"], bells: 0, text: "hello\r\nworld" },
    { name: "a bell", chunks: ["ready?\x07"], bells: 1, text: "ready?" },
    { name: "a BEL ending a window title is no bell", chunks: ["\x1b]0;claude\x07prompt> "], bells: 0, text: "prompt> " },
    { name: "an OSC ended by ST, then a bell", chunks: ["\x1b]2;title\x1b\\\x07"], bells: 1, text: "" },
    { name: "an OSC split across chunks", chunks: ["\x1b]0;ti", "tle\x07", "\x07"], bells: 1, text: "" },
    { name: "colours and cursor moves removed", chunks: ["\x1b[1;31mred\x1b[0m \x1b[2K\x1b[10;5Hx"], bells: 0, text: "red x" },
    { name: "a CSI split across chunks", chunks: ["\x1b[", "38;5;", "208mok"], bells: 0, text: "ok" },
    { name: "DCS with a BEL inside ends there", chunks: ["\x1bPq#0\x07after"], bells: 0, text: "after" },
    { name: "charset selection", chunks: ["\x1b(Bdone"], bells: 0, text: "done" },
    { name: "two bells", chunks: ["\x07a\x07"], bells: 2, text: "a" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const scanner = new TerminalScanner();
      let bells = 0;
      let text = "";
      for (const chunk of c.chunks) {
        const r = scanner.scan(chunk);
        bells += r.bells;
        text += r.text;
      }
      expect({ bells, text }).toEqual({ bells: c.bells, text: c.text });
    });
  }
});

describe("TerminalScanner on random output", () => {
  it("finds what the char-by-char scanner found", () => {
    const pieces = [
      "\x1b",
      "[",
      "]",
      "0;",
      "31m",
      "\x07",
      "\x9b",
      "\x9c",
      "\x9d",
      "\\",
      "text ",
      "\r\n",
      "\x00",
      "\x7f",
      "🙂",
      "P",
      "(",
      "\x85",
      "\x90",
      "\xa0",
      "@",
    ];
    const next = seeded(7);
    for (let round = 0; round < 200; round++) {
      const chunks = Array.from({ length: 5 }, () =>
        Array.from({ length: Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]).join(""),
      );
      const scanner = new TerminalScanner();
      let bells = 0;
      let text = "";
      for (const chunk of chunks) {
        const r = scanner.scan(chunk);
        bells += r.bells;
        text += r.text;
      }
      expect({ bells, text }).toEqual(reference(chunks));
    }
  });
});

/** A reader that keeps its last `tail.lines` kept lines and the cursor's line, fed text char by char. */
class LineReader {
  lines: string[] = [];
  current = "";
  private carriage = false;
  constructor(private readonly tail: Required<TailWanted>) {}
  read(text: string, fresh = false): this {
    if (fresh) {
      this.current = "";
      this.carriage = false;
    }
    for (const ch of text) {
      if (ch === "\n") {
        if (this.tail.kept(this.current)) this.lines.push(this.current);
        if (this.lines.length > this.tail.lines) this.lines.shift();
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
}

const ALL = { lines: 2, kept: () => true };
const WORDS = { lines: 3, kept: (segment: string) => lineOf(segment, 400).trim() !== "" };

/**
 * Scans `chunks` with a tail (pass 2 reading back `tailFirstChars` at a time), and checks against the
 * char-by-char reference: the same bells after every chunk, and a reader fed the tails ends up exactly
 * as one fed all the text.
 */
function checkTail(
  chunks: string[],
  tail: Required<TailWanted>,
  tailFirstChars: number,
  groups: string[][] = chunks.map((c) => [c]),
): void {
  const scanner = new TerminalScanner({ tailFirstChars });
  const whole = new LineReader(tail);
  const fed = new LineReader(tail);
  let bells = 0;
  const seen: string[] = [];
  for (const group of groups) {
    const r = scanner.scan(group, tail);
    bells += r.bells;
    fed.read(r.text, r.fresh);
    whole.read(reference(group.length ? [...seen, ...group] : seen).text.slice(reference(seen).text.length));
    seen.push(...group);
    expect(bells).toBe(reference(seen).bells);
    expect({ lines: fed.lines, current: fed.current }).toEqual({ lines: whole.lines, current: whole.current });
  }
}

describe("TerminalScanner with a tail: every sequence it recognises, split at every boundary", () => {
  // Each is written between lines of text, so a tail of a line or two starts before, inside or after it.
  const sequences: { name: string; seq: string; bells: number; text: string }[] = [
    { name: "a bell", seq: "ring\x07", bells: 1, text: "ring" },
    { name: "an OSC ended by BEL (no bell)", seq: "\x1b]0;title\x07t", bells: 0, text: "t" },
    { name: "an OSC ended by ESC \\", seq: "\x1b]2;title\x1b\\\x07", bells: 1, text: "" },
    { name: "an 8-bit OSC ended by 8-bit ST", seq: "\x9d0;title\x9c\x07", bells: 1, text: "" },
    { name: "DCS ended by ST", seq: "\x1bPq#0;2\x1b\\ok", bells: 0, text: "ok" },
    { name: "DCS ended by BEL", seq: "\x1bPq\x07after", bells: 0, text: "after" },
    { name: "8-bit DCS", seq: "\x90q\nnot text\x07x", bells: 0, text: "x" },
    { name: "SOS, PM and APC strings", seq: "\x1bXa\x07\x1b^b\x1b\\\x1b_c\x07!", bells: 0, text: "!" },
    { name: "a string with newlines and bells' look-alikes inside", seq: "\x1b]8;;http://x\n\r\x1b\\link", bells: 0, text: "link" },
    { name: "ESC [ inside a string starts a CSI", seq: "\x1b]0;t\x1b[31mred", bells: 0, text: "red" },
    { name: "another ESC inside a string starts a new sequence", seq: "\x1b]0;t\x1b(Bz", bells: 0, text: "z" },
    { name: "CSI with parameters", seq: "\x1b[38;5;208mcol\x1b[0m", bells: 0, text: "col" },
    { name: "8-bit CSI", seq: "\x9b1;2Hat", bells: 0, text: "at" },
    { name: "a BEL inside a CSI rings nothing", seq: "\x1b[1\x07mq", bells: 0, text: "q" },
    { name: "a newline inside a CSI is no line", seq: "\x1b[1\n2mq", bells: 0, text: "q" },
    { name: "an ESC inside a CSI starts another", seq: "\x1b[1\x1b[2mq\x9b3\x1b[4mr", bells: 0, text: "qr" },
    { name: "a BEL right after ESC rings nothing", seq: "\x1b\x07w", bells: 0, text: "w" },
    { name: "charset selection", seq: "\x1b(Bdone", bells: 0, text: "done" },
    { name: "an intermediate, then ] opens a string", seq: "\x1b(]hidden\x07shown", bells: 0, text: "shown" },
    { name: "ESC ESC ] is text", seq: "\x1b\x1b]0;x\x07", bells: 1, text: "]0;x" },
    { name: "ESC then a final char", seq: "\x1bMup\x1b7\x1b8", bells: 0, text: "up" },
    { name: "C0 and C1 controls and DEL dropped", seq: "a\x00b\x08c\td\x7fe\x85f", bells: 0, text: "abcdef" },
    { name: "wide and astral chars kept", seq: "é🙂中", bells: 0, text: "é🙂中" },
    { name: "carriage returns rewrite the line", seq: "50%\r100%", bells: 0, text: "50%\r100%" },
  ];
  for (const c of sequences) {
    it(c.name, () => {
      const output = `first line\nsecond\n${c.seq}\nthird line\nlast `;
      // The table's own figures, read whole.
      expect(new TerminalScanner().scan(output)).toEqual({
        bells: c.bells,
        text: `first line\nsecond\n${c.text}\nthird line\nlast `,
        fresh: false,
      });
      for (const tail of [ALL, WORDS]) {
        for (const first of [1, 3, 1024]) {
          // Split at every boundary: in two chunks taken in apart, and in two taken in together.
          for (let i = 0; i <= output.length; i++) {
            const parts = [output.slice(0, i), output.slice(i)];
            checkTail(parts, tail, first);
            checkTail(parts, tail, first, [parts]);
          }
          // Char by char, taken in apart and all together.
          const chars = output.split("");
          checkTail(chars, tail, first);
          checkTail(chars, tail, first, [chars]);
        }
      }
    });
  }
});

describe("TerminalScanner with a tail", () => {
  it("reads only the last lines of a flood, from a fresh line", () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m \x1b[1mbold\x1b[0m\r\n`).join("");
    const r = new TerminalScanner().scan([lines.slice(0, 100_000), lines.slice(100_000), "prompt> "], { lines: 3 });
    expect(r.fresh).toBe(true);
    expect(r.bells).toBe(0);
    // The last three lines and the cursor's, nothing before them.
    expect(r.text).toBe("line 4997 bold\r\nline 4998 bold\r\nline 4999 bold\r\nprompt> ");
  });

  it("cuts the tail at its first line however far back it reached, batch after batch", () => {
    const scanner = new TerminalScanner({ tailFirstChars: 64 });
    const line = (i: number) => `\x1b[3${i % 8}mline ${i}\x1b[0m${i % 5 === 0 ? ` ${"long ".repeat(30)}` : ""}\n`;
    for (let batch = 0; batch < 20; batch++) {
      const lines = Array.from({ length: 200 }, (_, i) => line(batch * 200 + i));
      const r = scanner.scan([lines.slice(0, 150).join(""), lines.slice(150).join("")], { lines: 40 });
      const last = batch * 200 + 199;
      const want = Array.from({ length: 40 }, (_, i) => line(last - 39 + i).replace(/\x1b\[\d+m/g, "")).join("");
      expect({ batch, fresh: r.fresh, text: r.text }).toEqual({ batch, fresh: true, text: want });
    }
  });

  it("reads all of it when the last lines reach back to the start", () => {
    const r = new TerminalScanner({ tailFirstChars: 2 }).scan(["one\ntw", "o\x1b[1m\n", "three"], { lines: 5 });
    expect(r).toEqual({ bells: 0, text: "one\ntwo\nthree", fresh: false });
  });

  it("finds the same as the char-by-char scanner in random output, in random chunks and tails", () => {
    const pieces = [
      "\x1b",
      "[",
      "]",
      "0;",
      "31m",
      "\x07",
      "\x9b",
      "\x9c",
      "\x9d",
      "\x90",
      "\\",
      "text ",
      "\r\n",
      "\n",
      "\n",
      "\r",
      "\x00",
      "\x7f",
      "🙂",
      "P",
      "X",
      "^",
      "_",
      "(",
      " ",
      "1",
      "\x85",
      "\xa0",
      "@",
      "a",
      "word\n",
      "\x1b[1;31m",
      "\x1b]0;title\x07",
      "\x1bPq#0\x1b\\",
      "\x1b(B",
    ];
    const next = seeded(20);
    for (let round = 0; round < 400; round++) {
      const chunks = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        Array.from({ length: Math.floor(next() * 60) }, () => pieces[Math.floor(next() * pieces.length)]).join(""),
      );
      const tail = next() < 0.5 ? { lines: 1 + Math.floor(next() * 3), kept: () => true } : { ...WORDS, lines: 1 + Math.floor(next() * 3) };
      const first = 1 + Math.floor(next() * 12);
      // Taken in chunk by chunk, and in groups of consecutive chunks.
      checkTail(chunks, tail, first);
      const groups: string[][] = [];
      for (let i = 0; i < chunks.length;) {
        const size = 1 + Math.floor(next() * 3);
        groups.push(chunks.slice(i, i + size));
        i += size;
      }
      checkTail(chunks, tail, first, groups);
    }
  });
});
