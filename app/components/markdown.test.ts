// The Markdown reader with real tutor answers: rendered to HTML by the same component the chat uses.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";
import { attachmentUrl, healStreaming, safeImageUrl, safeLinkUrl, splitBlocks } from "./markdown";

const SESSION = "6f1c2a9e-0000-4000-8000-000000000001";
const html = (text: string, streaming = false) => renderToStaticMarkup(createElement(Markdown, { text, sessionId: SESSION, streaming }));
const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "");

describe("safeLinkUrl", () => {
  it.each([
    [
      "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Closures",
      "https://developer.mozilla.org/en-US/docs/Web/JavaScript/Closures",
    ],
    ["http://example.org", "http://example.org/"],
    ["mailto:tutor@example.org", "mailto:tutor@example.org"],
    ["#fn-1", "#fn-1"],
    ["javascript:alert(1)", null],
    ["JAVASCRIPT:alert(1)", null],
    ["data:text/html,<script>alert(1)</script>", null],
    ["file:///etc/passwd", null],
    ["vscode://open", null],
    ["../secrets.txt", null],
    ["/api/session/end", null],
  ])("%s -> %s", (url, expected) => {
    expect(safeLinkUrl(url)).toBe(expected);
  });
});

describe("safeImageUrl", () => {
  it.each([
    ["attachments/photo-1.jpg", attachmentUrl(SESSION, "photo-1.jpg")],
    ["./attachments/photo-1.jpg", attachmentUrl(SESSION, "photo-1.jpg")],
    [attachmentUrl(SESSION, "photo-1.jpg"), attachmentUrl(SESSION, "photo-1.jpg")],
    [attachmentUrl("another-session", "photo-1.jpg"), null],
    ["attachments/../TUTOR.md", null],
    ["https://tracker.example.org/pixel.gif", null],
    ["data:image/png;base64,AAAA", null],
    ["/api/sessions", null],
  ])("%s -> %s", (url, expected) => {
    expect(safeImageUrl(url, SESSION)).toBe(expected);
  });
  it("shows no image without a session", () => {
    expect(safeImageUrl("attachments/a.png", undefined)).toBeNull();
  });
});

describe("Markdown with tutor answers", () => {
  it("keeps identifiers with underscores whole", () => {
    const out = html("Rename my_var_name to total_sum, and call `__init__` once.");
    expect(out).not.toContain("<em>");
    expect(textOf(out)).toContain("my_var_name to total_sum, and call __init__ once.");
  });

  it("reads stars between numbers as arithmetic, not emphasis, and still reads real emphasis", () => {
    const out = html("So 2*3*4 = 24, x*y + y*z is symmetric, and 2**3**2 is a power. This is *important* and **bold**.");
    expect(textOf(out)).toContain("So 2*3*4 = 24, x*y + y*z is symmetric, and 2**3**2 is a power.");
    expect(out).toContain("<em>important</em>");
    expect(out).toContain("<strong>bold</strong>");
    expect(out.match(/<em>/g)).toHaveLength(1);
  });

  it("renders headings, blockquotes, tables and nested lists", () => {
    const out = html(
      [
        "## Big-O at a glance",
        "",
        "> A loop inside a loop is usually O(n²).",
        "",
        "| Operation | list | dict |",
        "|---|:---:|---:|",
        "| lookup | O(n) | O(1) |",
        "| insert | O(1) | O(1) |",
        "",
        "1. Arrays",
        "   - contiguous",
        "     - cache friendly",
        "   - fixed size",
        "2. Linked lists",
      ].join("\n"),
    );
    expect(out).toContain("<h2>Big-O at a glance</h2>");
    expect(out).toMatch(/<blockquote>\s*<p>A loop inside a loop is usually O\(n²\)\.<\/p>\s*<\/blockquote>/);
    expect(out).toMatch(/<table>[\s\S]*<th>Operation<\/th>[\s\S]*<td style="text-align:center">O\(n\)<\/td>/);
    expect(out).toMatch(/<ol>\s*<li>Arrays\s*<ul>\s*<li>contiguous\s*<ul>\s*<li>cache friendly<\/li>/);
  });

  it("highlights fenced code and keeps its text exact", () => {
    const code = "def area(r):\n    return 3.14159 * r ** 2  # *not* emphasis";
    const out = html("```python\n" + code + "\n```");
    expect(out).toContain('class="hljs language-python"');
    expect(out).toContain('<span class="hljs-keyword">def</span>');
    expect(
      textOf(out)
        .replace(/&gt;/g, ">")
        .replace(/&lt;/g, "<")
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'"),
    ).toContain(code);
  });

  it("typesets inline and display math with KaTeX", () => {
    const out = html("The roots are $x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$");
    expect(out).toContain('class="katex"');
    expect(out).toContain('class="katex-display"');
    expect(out).toContain('<annotation encoding="application/x-tex">\\int_0^1 x^2\\,dx = \\frac{1}{3}</annotation>');
  });

  it("shows a formula KaTeX cannot read as written instead of failing", () => {
    expect(() => html("$$\\frac{1}{$$")).not.toThrow();
  });

  it("never turns an answer into markup: HTML stays out, script links are not links", () => {
    const out = html(
      '<img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n[click](javascript:alert(1)) [docs](https://example.org)',
    );
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<script");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('<a href="https://example.org/" target="_blank" rel="noreferrer noopener">docs</a>');
  });

  it("shows images only from the session's own files", () => {
    const out = html("![my photo](attachments/photo-1.jpg) ![tracker](https://tracker.example.org/p.gif)");
    expect(out).toContain(`<img src="${attachmentUrl(SESSION, "photo-1.jpg")}" alt="my photo"`);
    expect(out).not.toContain("tracker.example.org");
    expect(out).toContain("[image: tracker]");
  });
});

describe("a half-streamed answer", () => {
  it.each([
    ["**Closures** capture the **enclos", "**Closures** capture the **enclos**"],
    ["Use `my_va", "Use `my_va`"],
  ])("%s heals to %s", (partial, healed) => {
    expect(healStreaming(partial)).toBe(healed);
  });

  it("renders an open code fence as code and an open bold as bold, as it will when complete", () => {
    expect(html("Here:\n\n```js\nconst f = () =>", true)).toContain('class="hljs language-js"');
    expect(html("capture the **enclos", true)).toContain("<strong>enclos</strong>");
    expect(html("$$\n\\sum_{i=1}^n i", true)).toContain('class="katex-display"');
  });
});

describe("splitBlocks", () => {
  it("cuts an answer into whole blocks: a list with blank lines, a table and a math block each stay one", () => {
    const text = "# T\n\n1. a\n\n2. b\n   - c\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n$$\nx^2\n\n$$\n\n```\ncode\n\nmore\n```";
    expect(splitBlocks(text)).toEqual([
      "# T",
      "1. a\n\n2. b\n   - c",
      "| x | y |\n|---|---|\n| 1 | 2 |",
      "$$\nx^2\n\n$$",
      "```\ncode\n\nmore\n```",
    ]);
  });
  it("keeps an answer with link definitions or footnotes whole", () => {
    expect(splitBlocks("See [docs][1].\n\n[1]: https://example.org")).toHaveLength(1);
    expect(splitBlocks("A claim.[^1]\n\n[^1]: A source.")).toHaveLength(1);
  });
  it("renders the same split as whole", () => {
    const text = "Intro with $x$.\n\n- a\n- b\n\n```js\nlet a_b = 2*3*4;\n```";
    expect(html(text)).toContain("<li>a</li>");
    expect(html(text)).toContain('class="hljs language-js"');
  });
});
