import { describe, expect, it } from "vitest";
import { screenIsBlank, startingHint, StartingHintLimits, whenDrawn } from "./starting-hint";

const rows = (...lines: string[]) => ({ length: lines.length, getLine: (y: number) => ({ translateToString: () => lines[y] ?? "" }) });

describe("screenIsBlank", () => {
  it("reads only the visible rows", () => {
    expect(screenIsBlank(rows("", "   ", ""), 0, 3)).toBe(true);
    expect(screenIsBlank(rows("old text", "", ""), 1, 2)).toBe(true);
    expect(screenIsBlank(rows("", "", "Sign in"), 1, 2)).toBe(false);
  });
});

describe("startingHint", () => {
  const start = "2026-12-02T10:00:00.000Z";
  const at = (ms: number) => Date.parse(start) + ms;
  const table: [string, number, boolean, string | null][] = [
    ["right after the start", 1_000, false, null],
    ["after a few seconds, blank", StartingHintLimits.AFTER_MS, false, "codex has not drawn anything yet (5 s)."],
    ["drawn", 20_000, true, null],
    ["blank long after the start (the agent cleared it)", StartingHintLimits.UNTIL_MS, false, null],
  ];
  for (const [name, ms, drawn, expected] of table) {
    it(name, () => {
      const hint = startingHint("codex", start, at(ms), drawn);
      if (expected === null) expect(hint).toBeNull();
      else expect(hint).toContain(expected);
    });
  }
});

describe("whenDrawn", () => {
  it("calls back once the screen shows anything, then stops watching", () => {
    const lines = ["", ""];
    let listener: (() => void) | undefined;
    let disposed = 0;
    const term = {
      rows: 2,
      buffer: { active: { baseY: 0, length: 2, getLine: (y: number) => ({ translateToString: () => lines[y] ?? "" }) } },
      onWriteParsed: (l: () => void) => ((listener = l), { dispose: () => void disposed++ }),
    };
    let drawn = 0;
    whenDrawn(term, () => drawn++);
    listener!();
    expect(drawn).toBe(0);
    lines[1] = "Welcome to Codex";
    listener!();
    expect(drawn).toBe(1);
    expect(disposed).toBe(1);
  });

  it("calls back at once for a screen already drawn (a reload)", () => {
    const term = {
      rows: 1,
      buffer: { active: { baseY: 0, length: 1, getLine: () => ({ translateToString: () => "tutor>" }) } },
      onWriteParsed: () => ({ dispose: () => undefined }),
    };
    let drawn = 0;
    whenDrawn(term, () => drawn++);
    expect(drawn).toBe(1);
  });
});
