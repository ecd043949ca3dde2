// How a learner's search words become an FTS5 query. Literal: every word is quoted, so FTS5's
// operators (AND, OR, NOT, NEAR, *, ^, :, parentheses) and SQL's wildcards (% and _) are just
// characters. The index uses the trigram tokenizer, so a word matches as a substring, case-insensitively;
// words shorter than three characters (which trigrams cannot find) are matched with an escaped LIKE.
// Pure, and shared by the API, the pages and `studyloop recall`.

export interface SearchPlan {
  /** The FTS5 MATCH expression (every word a quoted phrase, all required), or null. */
  readonly match: string | null;
  /** LIKE patterns (escaped with \) each result must also contain. */
  readonly likes: readonly string[];
}

/** Marks around the matched text in a snippet: private-use characters that no text contains. */
export const HIT_START = "\uE000";
export const HIT_END = "\uE001";

const TRIGRAM = 3;
/** Words searched at most: more adds nothing but cost. */
const MAX_WORDS = 12;

/** Null when there is nothing to search for (only spaces). */
export function planSearch(query: string): SearchPlan | null {
  const words = [...new Set(query.replace(/[\uE000\uE001]/g, "").trim().split(/\s+/).filter(Boolean))].slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  const long = words.filter((w) => [...w].length >= TRIGRAM);
  const short = words.filter((w) => [...w].length < TRIGRAM);
  return {
    match: long.length ? long.map((w) => `"${w.replaceAll('"', '""')}"`).join(" AND ") : null,
    likes: short.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
  };
}

/** A snippet around the first word found, for matches the index cannot mark (short words). */
export function snippetAround(text: string, words: readonly string[], context = 60): string {
  const lower = text.toLowerCase();
  let at = -1;
  let len = 0;
  for (const w of words) {
    const i = lower.indexOf(w.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) {
      at = i;
      len = w.length;
    }
  }
  if (at < 0) return text.slice(0, context * 2);
  const from = Math.max(0, at - context);
  const to = Math.min(text.length, at + len + context);
  return `${from > 0 ? "…" : ""}${text.slice(from, at)}${HIT_START}${text.slice(at, at + len)}${HIT_END}${text.slice(at + len, to)}${to < text.length ? "…" : ""}`;
}

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
