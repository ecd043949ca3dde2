import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./markdown";

describe("parseMarkdown", () => {
  it("reads headings, lists, code blocks and paragraphs", () => {
    const blocks = parseMarkdown("# Closures\n\nA *closure* keeps `x`.\n\n- one\n- two\n\n```js\nconst f = () => x;\n```");
    expect(blocks.map((b) => b.t)).toEqual(["h", "p", "ul", "pre"]);
    expect(blocks[3]).toEqual({ t: "pre", lang: "js", v: "const f = () => x;" });
  });

  it("keeps an unfinished code block while the answer is still streaming", () => {
    expect(parseMarkdown("```\nlet a")).toEqual([{ t: "pre", lang: "", v: "let a" }]);
  });

  it("never turns agent text into markup: HTML stays text, script links stay text", () => {
    expect(parseInline("<img src=x onerror=alert(1)>")).toEqual([{ t: "text", v: "<img src=x onerror=alert(1)>" }]);
    const script = parseInline("[click](javascript:alert(1))");
    expect(script.every((n) => n.t === "text")).toBe(true);
    expect(script.map((n) => (n.t === "text" ? n.v : "")).join("")).toBe("[click](javascript:alert(1))");
    expect(parseInline("[docs](https://example.org)")).toEqual([{ t: "link", href: "https://example.org", c: [{ t: "text", v: "docs" }] }]);
  });

  it("reads bold and nested emphasis", () => {
    expect(parseInline("**Closures** capture")).toEqual([{ t: "strong", c: [{ t: "text", v: "Closures" }] }, { t: "text", v: " capture" }]);
  });
});
