// The notifier keeps only the last lines of a terminal's text (a few for the waiting-input check, a few
// hundred for the away digest), yet a flood hands it megabytes. `tailStart` says where in a chunk of
// text a line reader can start without changing what it keeps: right after a newline (a fresh line),
// with at least `lines` kept lines still ahead. Everything before that would have been pushed out; a
// reader that skips to a start past 0 begins a fresh line there (the skipped part ended with a newline).
// Pure; line-tail.test.ts checks readers fed the tail against readers fed everything.

/**
 * The line a terminal shows for `segment`, text between two newlines read from a fresh line: a carriage
 * return then text rewrites the line; at most `maxChars` are kept (the readers' rule, char by char).
 */
export function lineOf(segment: string, maxChars: number): string {
  // Trailing carriage returns rewrite nothing; the last one before text starts the line anew.
  let end = segment.length;
  while (end > 0 && segment.charCodeAt(end - 1) === 0x0d) end--;
  const line = segment.slice(segment.lastIndexOf("\r", end - 1) + 1, end);
  if (line.length <= maxChars) return line;
  // Whole code points while the line is shorter than maxChars: a pair that starts inside is kept whole.
  const high = line.charCodeAt(maxChars - 1);
  const low = line.charCodeAt(maxChars);
  return line.slice(0, high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? maxChars + 1 : maxChars);
}

/**
 * Index in `text` from which a reader that keeps its last `lines` kept lines ends up the same as one
 * that read all of `text`: just after the newline before the `lines`-th newline-ended segment from the
 * end that `kept` accepts; 0 when there are fewer.
 */
export function tailStart(text: string, lines: number, kept: (segment: string) => boolean = () => true): number {
  if (lines <= 0) return text.lastIndexOf("\n") + 1;
  let found = 0;
  let end = text.lastIndexOf("\n");
  while (end !== -1) {
    const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
    if (kept(text.slice(start, end)) && ++found === lines) return start;
    end = start - 1;
  }
  return 0;
}
