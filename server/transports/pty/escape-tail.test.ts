// The unfinished sequence at the end of a terminal's output, as a table: chunks in, pending out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EscapeTail, EscapeTailLimits } from "./escape-tail.ts";

const E = "\x1b";

const CASES: { name: string; chunks: string[]; pending: string }[] = [
  { name: "plain text", chunks: ["hello"], pending: "" },
  { name: "finished CSI", chunks: [`a${E}[31mb`], pending: "" },
  { name: "CSI cut in its parameters", chunks: [`a${E}[48;2;`], pending: `${E}[48;2;` },
  { name: "CSI cut, then finished", chunks: [`a${E}[48;2;`, "10;10;10mX"], pending: "" },
  { name: "CSI over three chunks", chunks: [`${E}`, "[1;", "2"], pending: `${E}[1;2` },
  { name: "ESC alone at the end", chunks: [`x${E}`], pending: E },
  { name: "ESC with an intermediate", chunks: [`${E}(`], pending: `${E}(` },
  { name: "ESC with its final", chunks: [`${E}(B`], pending: "" },
  { name: "OSC ended by BEL", chunks: [`${E}]0;title\x07`], pending: "" },
  { name: "OSC cut", chunks: [`${E}]0;ti`, "tl"], pending: `${E}]0;titl` },
  { name: "OSC cut before its ST's backslash (the OSC is over)", chunks: [`${E}]0;t${E}`], pending: E },
  { name: "OSC ended by ST", chunks: [`${E}]0;t${E}`, "\\"], pending: "" },
  { name: "ESC in a string ends it and begins a sequence", chunks: [`${E}]0;t${E}[3`], pending: `${E}[3` },
  { name: "DCS waits for ST, not BEL", chunks: [`${E}P$q`, `m\x07`], pending: `${E}P$qm\x07` },
  { name: "APC waits for ST", chunks: [`${E}_Gi=1;AAAA`], pending: `${E}_Gi=1;AAAA` },
  { name: "APC ended by ST", chunks: [`${E}_Gi=1;AAAA${E}\\`], pending: "" },
  { name: "CAN aborts", chunks: [`${E}[12\x18`], pending: "" },
  { name: "SUB aborts a string", chunks: [`${E}]0;x\x1a`], pending: "" },
  { name: "the last of several", chunks: [`${E}[1m${E}]0;a\x07${E}[?25`], pending: `${E}[?25` },
  { name: "a new ESC in a CSI starts over", chunks: [`${E}[1${E}[2`], pending: `${E}[2` },
];

describe("EscapeTail", () => {
  for (const c of CASES) {
    it(`${c.name}: as text and as UTF-8`, () => {
      const text = new EscapeTail();
      const bytes = new EscapeTail();
      for (const chunk of c.chunks) {
        text.push(chunk);
        bytes.push(new TextEncoder().encode(chunk));
      }
      expect(text.pending).toBe(c.pending);
      expect(bytes.pending).toBe(c.pending);
    });
  }

  it("keeps at most STRING_CHARS of a long string sequence", () => {
    const tail = new EscapeTail();
    tail.push(`${E}]52;c;`);
    for (let i = 0; i < 100; i++) tail.push("A".repeat(1000));
    expect(tail.pending.length).toBe(EscapeTailLimits.STRING_CHARS);
    expect(tail.pending.startsWith(`${E}]52;c;AAA`)).toBe(true);
    tail.push("\x07");
    expect(tail.pending).toBe("");
  });

  it("keeps a UTF-8 title whole", () => {
    const tail = new EscapeTail();
    tail.push(new TextEncoder().encode(`${E}]0;café`));
    expect(tail.pending).toBe(`${E}]0;café`);
  });

  // A chunk is read from its last ESC on; one char at a time, every char is read. Both must agree.
  it("ends in the same state however the output is cut into chunks", () => {
    const alphabet = [E, "[", "]", "P", "_", "\\", "\x07", "\x18", "\x1a", "(", "B", "1", ";", "m", "a", "é"];
    const output = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((cs) => cs.join(""));
    const cuts = fc.array(fc.nat(), { maxLength: 6 });
    fc.assert(
      fc.property(output, cuts, (text, at) => {
        const oneByOne = new EscapeTail();
        for (const char of text) oneByOne.push(char);
        const bounds = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...bounds, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
        const asText = new EscapeTail();
        const asBytes = new EscapeTail();
        for (const piece of pieces) {
          asText.push(piece);
          asBytes.push(new TextEncoder().encode(piece));
        }
        expect(asText.pending).toBe(oneByOne.pending);
        expect(asBytes.pending).toBe(oneByOne.pending);
      }),
      { numRuns: 2000 },
    );
  });
});
