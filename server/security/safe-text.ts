// Text from learners and tutors, made safe to store and to show: pure.
//
// Stored text (topics, notes, parked thoughts, device names) never holds C0/C1 control characters (a
// terminal that prints them obeys them: OSC 52 writes the clipboard, ESC c clears the screen) and never
// holds the bidi controls that reorder what follows them (U+202E makes "rtl\u202Egnp.exe" display as
// "rtlexe.png"). Control characters are refused with a sentence; bidi controls are removed, since
// right-to-left text displays correctly without them. What is printed (the CLI, the server's log) is
// escaped, so text stored before these rules, or read from elsewhere, cannot drive the terminal either.

/** Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they reorder the text after them. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F). */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** Multi-line text may also hold line breaks and tabs. */
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

export type TextKind = "line" | "text";

/** Removes bidi controls; for multi-line text, also turns CRLF and lone CR into LF. */
export function neutraliseText(text: string, kind: TextKind): string {
  const stripped = text.replace(BIDI_CONTROLS, "");
  return kind === "text" ? stripped.replace(/\r\n?/g, "\n") : stripped;
}

/** The first control character the text may not hold (after neutralising), or undefined. */
export function forbiddenControl(text: string, kind: TextKind): string | undefined {
  return (kind === "line" ? CONTROL : CONTROL_BUT_LINES).exec(text)?.[0];
}

/** The sentence for a refused field: names the field and what to do. */
export function controlRefusal(field: string, kind: TextKind): string {
  return kind === "line"
    ? `${field} must be plain text on one line, without control characters (such as terminal escape sequences)`
    : `${field} must be plain text, without control characters (such as terminal escape sequences); line breaks and tabs are fine`;
}

/** Escapes what a terminal would obey: controls and bidi controls become visible \x1b, \u202e. */
export function printable(text: string, opts: { keepNewlines?: boolean } = {}): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, (c) => {
    if (c === "\n" && opts.keepNewlines) return c;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
