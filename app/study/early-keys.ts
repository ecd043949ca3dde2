// The bytes xterm.js sends for a key, for the keys a learner types on a reloaded page before its
// terminal exists (early-catcher.ts): text, Enter, Backspace, Tab, Escape, arrows, Home/End/Delete and
// Ctrl with a letter, in xterm.js's default modes (normal cursor keys: the page does not know the
// agent's modes yet, as the typing stand-in does not). Anything else (Alt, Meta, function keys, a
// composition) is null: the catcher leaves it alone. Pure and self-contained: the page inlines this
// function's own source (Function.prototype.toString), so it may use nothing outside its body.

/** A keydown's fields the mapping reads (a KeyboardEvent has them all). */
export interface EarlyKey {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly isComposing?: boolean;
}

export function earlyKeyBytes(e: EarlyKey): string | null {
  if (e.altKey || e.metaKey || e.isComposing) return null;
  const key = e.key;
  if (e.ctrlKey) {
    if (e.shiftKey || key.length !== 1) return null;
    // xterm.js: Ctrl with A-Z is the C0 control (keyCode - 64), Ctrl-[ \ ] are ESC, FS, GS.
    const code = key.toUpperCase().charCodeAt(0);
    return (code >= 0x41 && code <= 0x5a) || (code >= 0x5b && code <= 0x5d) ? String.fromCharCode(code & 0x1f) : null;
  }
  const plain: Record<string, string> = {
    Enter: "\r",
    Backspace: "\x7f",
    Tab: "\t",
    Escape: "\x1b",
    ArrowUp: "\x1b[A",
    ArrowDown: "\x1b[B",
    ArrowRight: "\x1b[C",
    ArrowLeft: "\x1b[D",
    Home: "\x1b[H",
    End: "\x1b[F",
    Delete: "\x1b[3~",
  };
  if (Object.prototype.hasOwnProperty.call(plain, key)) {
    if (!e.shiftKey) return plain[key]!;
    return key === "Tab" ? "\x1b[Z" : null;
  }
  // One character (one code point: an emoji is two UTF-16 units), typed as it is.
  const points = Array.from(key);
  return points.length === 1 && key.charCodeAt(0) >= 0x20 && key !== "\x7f" ? key : null;
}
