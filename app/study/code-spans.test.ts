import { describe, expect, it } from "vitest";
import { codeSpans } from "./code-spans.ts";

const plain = (text: string) => ({ text, code: false });
const code = (text: string) => ({ text, code: true });

describe("codeSpans", () => {
  it.each([
    ["", []],
    ["no code here", [plain("no code here")]],
    ["Run `claude /login` in the terminal", [plain("Run "), code("claude /login"), plain(" in the terminal")]],
    ["`a` and `b`", [code("a"), plain(" and "), code("b")]],
    ["an unpaired ` stays", [plain("an unpaired ` stays")]],
    ["`x` then ` alone", [code("x"), plain(" then ` alone")]],
    ["empty `` pair", [plain("empty "), code(""), plain(" pair")]],
  ])("%j", (text, parts) => {
    expect(codeSpans(text)).toEqual(parts);
  });

  it("keeps every character but the paired backticks", () => {
    const text = 'set GEMINI_API_KEY (`"env": {"pass": ["GEMINI_API_KEY"]}`), then ` once';
    expect(
      codeSpans(text)
        .map((p) => p.text)
        .join(""),
    ).toBe(text.replace(/`(?=")|(?<=})`/g, ""));
  });
});
