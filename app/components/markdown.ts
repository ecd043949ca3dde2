// A small Markdown reader for the tutor's answers: paragraphs, headings, lists, code blocks, and
// inline bold, italic, code and links. It produces a tree, never HTML, so nothing the agent writes can
// become markup or script on the page.

export type Inline =
  | { readonly t: "text"; readonly v: string }
  | { readonly t: "strong"; readonly c: Inline[] }
  | { readonly t: "em"; readonly c: Inline[] }
  | { readonly t: "code"; readonly v: string }
  | { readonly t: "link"; readonly href: string; readonly c: Inline[] };

export type Block =
  | { readonly t: "p"; readonly c: Inline[] }
  | { readonly t: "h"; readonly level: number; readonly c: Inline[] }
  | { readonly t: "ul" | "ol"; readonly items: Inline[][] }
  | { readonly t: "pre"; readonly lang: string; readonly v: string };

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*```(\S*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end of a still-streaming block)
      blocks.push({ t: "pre", lang: fence[1] ?? "", v: body.join("\n") });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ t: "h", level: heading[1]!.length, c: parseInline(heading[2]!) });
      i++;
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: Inline[][] = [];
      while (i < lines.length && bullet.test(lines[i]!)) items.push(parseInline(lines[i++]!.replace(bullet, "")));
      blocks.push({ t: ordered ? "ol" : "ul", items });
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^\s*```/.test(lines[i]!) && !/^#{1,6}\s/.test(lines[i]!) && !bullet.test(lines[i]!)) {
      para.push(lines[i++]!);
    }
    blocks.push({ t: "p", c: parseInline(para.join("\n")) });
  }
  return blocks;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push({ t: "text", v: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ t: "code", v: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ t: "strong", c: parseInline(m[2] ?? m[3]!) });
    else if (m[4] !== undefined || m[5] !== undefined) out.push({ t: "em", c: parseInline(m[4] ?? m[5]!) });
    else if (m[6] !== undefined) {
      const href = m[7]!;
      // Only web and mail links become links; anything else (javascript:, data:) stays text.
      if (/^(https?:|mailto:)/i.test(href)) out.push({ t: "link", href, c: parseInline(m[6]) });
      else out.push({ t: "text", v: m[0] });
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ t: "text", v: text.slice(last) });
  return out;
}
