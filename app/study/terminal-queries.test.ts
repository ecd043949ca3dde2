// The page's terminal swallows every query the mirror answers: written into a terminal with the
// handlers installed, no query produces an answer, and what is not a query still takes effect.
import headless from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { swallowTerminalQueries } from "./terminal-queries.ts";

const { Terminal } = headless;

async function answers(data: string, swallow: boolean): Promise<string[]> {
  const terminal = new Terminal({ cols: 40, rows: 10, allowProposedApi: true });
  if (swallow) swallowTerminalQueries(terminal.parser);
  const out: string[] = [];
  terminal.onData((d) => out.push(d));
  await new Promise<void>((resolve) => terminal.write(data, resolve));
  terminal.dispose();
  return out;
}

const QUERIES: [string, string][] = [
  ["DA1", "\x1b[c"],
  ["DA1 with 0", "\x1b[0c"],
  ["DA2", "\x1b[>c"],
  ["CPR", "\x1b[6n"],
  ["DSR status", "\x1b[5n"],
  ["DECXCPR", "\x1b[?6n"],
  ["DECRQM (DEC)", "\x1b[?2004$p"],
  ["DECRQM (ANSI)", "\x1b[4$p"],
  ["DECRQSS", "\x1bP$qm\x1b\\"],
];

describe("swallowTerminalQueries", () => {
  it.each(QUERIES)("%s: xterm answers it by itself, and not with the handlers", async (_name, query) => {
    expect((await answers(query, false)).length).toBeGreaterThan(0); // the test can fail
    expect(await answers(query, true)).toEqual([]);
  });

  it("lets colour sets, modes and text through", async () => {
    const terminal = new Terminal({ cols: 40, rows: 10, allowProposedApi: true });
    swallowTerminalQueries(terminal.parser);
    await new Promise<void>((resolve) => terminal.write("\x1b[?2004h\x1b]11;#102030\x07hi\x1b[31mred", resolve));
    expect(terminal.modes.bracketedPasteMode).toBe(true);
    expect(terminal.buffer.active.getLine(0)?.translateToString(true)).toBe("hired");
    terminal.dispose();
  });
});
