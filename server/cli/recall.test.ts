import { describe, expect, it } from "vitest";
import { formatRecall, parseRecallArgs, printable } from "./recall.ts";
import { UsageError } from "./options.ts";
import type { SearchHit } from "../recording/search-index.ts";

describe("studyloop recall", () => {
  it("takes the words, quoted or not, and a limit", () => {
    expect(parseRecallArgs(["closures", "in", "js"])).toEqual({ help: false, query: "closures in js", limit: 5, dataDir: undefined });
    expect(parseRecallArgs(["closures", "--limit", "2"])).toMatchObject({ query: "closures", limit: 2 });
    expect(parseRecallArgs(["--help"])).toEqual({ help: true });
  });

  it.each([[[]], [["x", "--limit", "0"]], [["x", "--limit", "21"]], [["x", "--limit", "two"]], [["x".repeat(201)]]])(
    "refuses %j with a sentence (exit 2)",
    (argv) => {
      expect(() => parseRecallArgs(argv as string[])).toThrow(UsageError);
    },
  );

  it("prints date, topic, where, the snippet with its match, and a link", () => {
    const hit: SearchHit = {
      sessionId: "s1",
      topic: "closures\u001b]52;c;x\u0007",
      startedAt: "2026-11-30T09:05:00.000Z",
      kind: "transcript",
      atMs: 761_300,
      snippet: "a \uE000closure\uE001 captures\nthe variable",
      href: "/sessions/s1?t=761.3",
    };
    expect(formatRecall("closure", [hit], "http://127.0.0.1:8567")).toBe(
      [
        '1 moment from past sessions matching "closure":',
        "",
        "1. 30 Nov 2026, 09:05 UTC · closures ]52;c;x  · transcript at 12:41",
        "   a [closure] captures the variable",
        "   http://127.0.0.1:8567/sessions/s1?t=761.3",
      ].join("\n"),
    );
    expect(formatRecall("zzz", [], null)).toBe('Nothing from past sessions matches "zzz".');
  });

  it("prints no control characters or bidi overrides", () => {
    expect(printable("rtl\u202egnp.exe\u001b[2J")).toBe("rtl gnp.exe [2J");
  });
});
