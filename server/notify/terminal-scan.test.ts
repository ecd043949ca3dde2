import { describe, expect, it } from "vitest";
import { TerminalScanner } from "./terminal-scan.ts";

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
  /** The scanner as it was, char by char: the fast one must find the same text and bells. */
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
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
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
