// What the CLI prints: every line goes through printable(), so a topic or note holding an escape
// sequence (OSC 52, a title, a clear-screen) or a bidi override shows as text instead of acting.
import { printable } from "../security/safe-text.ts";

/** A line (or lines) on stdout. */
export function say(text: string): void {
  console.log(printable(text, { keepNewlines: true }));
}

/** A line (or lines) on stderr. */
export function warn(text: string): void {
  console.error(printable(text, { keepNewlines: true }));
}
