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

import { HIT_END, HIT_START } from "../../common/search-snippets.ts";

export { HIT_END, HIT_START, snippetLine, snippetParts } from "../../common/search-snippets.ts";

const TRIGRAM = 3;
/** Words searched at most: more adds nothing but cost. */
const MAX_WORDS = 12;

/** The distinct words of a search, at most MAX_WORDS (the private-use hit markers taken out). */
export function searchWords(query: string): string[] {
  return [
    ...new Set(
      query
        .replace(/[\uE000\uE001]/g, "")
        .trim()
        .split(/\s+/)
        .filter(Boolean),
    ),
  ].slice(0, MAX_WORDS);
}

/** Whether the trigram index can find a word (three characters or more). */
export function isTrigramWord(word: string): boolean {
  return [...word].length >= TRIGRAM;
}

/** A LIKE pattern that finds the word literally anywhere (its %, _ and backslashes escaped with a backslash). */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Null when there is nothing to search for (only spaces). */
export function planSearch(query: string): SearchPlan | null {
  const words = searchWords(query);
  if (words.length === 0) return null;
  const long = words.filter(isTrigramWord);
  const short = words.filter((w) => !isTrigramWord(w));
  return {
    match: long.length ? long.map((w) => `"${w.replaceAll('"', '""')}"`).join(" AND ") : null,
    likes: short.map(likePattern),
  };
}

/**
 * The text around the first match, every match in it marked (case-insensitive, as the index matches).
 * Done here rather than with FTS5's snippet(), whose windows over trigram tokens cut matches in half.
 */
export function snippetAround(text: string, words: readonly string[], context = 70): string {
  const lower = text.toLowerCase();
  const needles = [...new Set(words.map((w) => w.toLowerCase()).filter(Boolean))];
  let first = -1;
  for (const w of needles) {
    const i = lower.indexOf(w);
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  if (first < 0) return text.length > context * 2 ? `${text.slice(0, context * 2)}…` : text;
  const from = Math.max(0, first - context);
  const to = Math.min(text.length, first + context * 2);
  const ranges: [number, number][] = [];
  for (const w of needles) {
    for (let i = lower.indexOf(w, from); i >= 0 && i < to; i = lower.indexOf(w, i + 1)) ranges.push([i, Math.min(to, i + w.length)]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  let out = from > 0 ? "…" : "";
  let at = from;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    const s = Math.max(start, at);
    out += `${text.slice(at, s)}${HIT_START}${text.slice(s, end)}${HIT_END}`;
    at = end;
  }
  return `${out}${text.slice(at, to)}${to < text.length ? "…" : ""}`;
}
