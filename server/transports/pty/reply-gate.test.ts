import fc from "fast-check";
import { spawn } from "node-pty";
import { describe, expect, it } from "vitest";
import { foregroundGroupOf, ReplyGate, TERMINAL_QUERY } from "./reply-gate.ts";

describe("terminal queries", () => {
  it.each([
    ["DA1", "\x1b[c", true],
    ["DA1 with 0", "\x1b[0c", true],
    ["DA2", "\x1b[>c", true],
    ["DA2 with 0", "\x1b[>0c", true],
    ["CPR", "\x1b[6n", true],
    ["DEC CPR", "\x1b[?6n", true],
    ["XTVERSION", "\x1b[>0q", true],
    ["DECRQM", "\x1b[?2004$p", true],
    ["kitty keyboard", "\x1b[?u", true],
    ["text area size", "\x1b[18t", true],
    ["OSC 11", "\x1b]11;?\x07", true],
    ["OSC 4", "\x1b]4;1;?\x1b\\", true],
    ["DECRQSS", "\x1bP$qm\x1b\\", true],
    ["SGR", "\x1b[1;31mred\x1b[0m", false],
    ["cursor style", "\x1b[2 q", false],
    ["title", "\x1b]0;vim\x07", false],
    ["scroll region", "\x1b[1;24r", false],
    ["restore cursor", "\x1b[s#\x1b[u", false],
    ["window resize", "\x1b[8;24;80t", false],
    ["plain text", "a c n q t ? 6n", false],
  ])("%s", (_name, text, query) => {
    expect(TERMINAL_QUERY.test(text)).toBe(query);
  });

  it("the lookahead only makes it faster: without it, the same text matches", () => {
    const lookahead = "(?=[>=?\\d;]*[cnqtu$])";
    expect(TERMINAL_QUERY.source).toContain(lookahead);
    const without = new RegExp(TERMINAL_QUERY.source.replace(lookahead, ""));
    const alphabet = ["\x1b[", "\x1b]", "\x1bP", ">", "=", "?", "$", "0", "1", "4", "8", ";", "c", "n", "q", "p", "u", "t", "m", "\x07"];
    const output = fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(output, (text) => TERMINAL_QUERY.test(text) === without.test(text)),
      { numRuns: 5000 },
    );
  });
});

describe("the reply gate", () => {
  const gate = (groups: number[]) => {
    let group = groups[0];
    const g = new ReplyGate(() => group);
    return { g, set: (n: number | undefined) => (group = n) };
  };

  it("lets answers through while the program that asked holds the terminal", () => {
    const { g } = gate([100]);
    g.sawOutput("\x1b]11;?\x07");
    expect(g.admits()).toBe(true);
  });

  it("drops an answer that arrives after the program that asked gave the terminal back", () => {
    const { g, set } = gate([200]);
    g.sawOutput("vim starts\x1b[>c\x1b]11;?\x07");
    set(100);
    expect(g.admits()).toBe(false);
    // The shell's own query is answered again.
    g.sawOutput("\x1b[6n");
    expect(g.admits()).toBe(true);
  });

  it("sees a query split across two chunks", () => {
    const { g, set } = gate([200]);
    g.sawOutput("x".repeat(100) + "\x1b]1");
    g.sawOutput("1;?\x07 and more");
    set(100);
    expect(g.admits()).toBe(false);
  });

  it("lets answers through when it saw no query, or cannot tell who holds the terminal", () => {
    const { g, set } = gate([200]);
    g.sawOutput("plain");
    set(100);
    expect(g.admits()).toBe(true);
    g.sawOutput("\x1b[c");
    set(undefined);
    expect(g.admits()).toBe(true);
  });
});

describe("the foreground process group", () => {
  it("is the shell's while it waits, and the program's while one runs", async () => {
    const pty = spawn("/bin/sh", ["-i"], { cols: 80, rows: 24, env: { PATH: process.env.PATH ?? "", PS1: "$ " } });
    try {
      const until = async (ok: () => boolean) => {
        for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
        return ok();
      };
      expect(await until(() => foregroundGroupOf(pty.pid) === pty.pid)).toBe(true);
      pty.write("sleep 5\r");
      expect(await until(() => (foregroundGroupOf(pty.pid) ?? pty.pid) !== pty.pid)).toBe(true);
    } finally {
      pty.kill("SIGKILL");
    }
    expect(foregroundGroupOf(2 ** 22 + 7)).toBeUndefined();
  });
});
