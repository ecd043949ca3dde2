// A search hit's snippet: the text around the match, the match between two marks. Pure and
// browser-safe (the result list marks matches; the CLI prints them in [brackets]).

/** Marks around the matched text in a snippet: private-use characters that no text contains. */
export const HIT_START = "\uE000";
export const HIT_END = "\uE001";

/** A snippet as parts to show: plain text and the matched text, in order. */
export function snippetParts(snippet: string): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  let hit = false;
  let text = "";
  for (const ch of snippet) {
    if (ch === HIT_START || ch === HIT_END) {
      if (text) parts.push({ text, hit });
      text = "";
      hit = ch === HIT_START;
    } else text += ch;
  }
  if (text) parts.push({ text, hit });
  return parts;
}

/** One line of text for a terminal or a log: the snippet with its matches in [brackets], flattened. */
export function snippetLine(snippet: string): string {
  return snippetParts(snippet)
    .map((p) => (p.hit ? `[${p.text}]` : p.text))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}
