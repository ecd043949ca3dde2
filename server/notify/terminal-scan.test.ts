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
