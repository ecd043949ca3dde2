// Which of a tutor's last lines are drawings (a logo, a box around a sign-in prompt) rather than
// sentences. Sentences wrap to the screen; a drawing wrapped on a phone turns into noise, so it keeps
// its shape and its box scrolls sideways instead.

/** Box drawing (U+2500-U+257F), block elements (U+2580-U+259F) and Braille patterns (U+2800-U+28FF). */
const DRAWING = /[\u2500-\u259f\u2800-\u28ff]/;

/** True when the line holds any character agents draw their logos and boxes with. */
export function isDrawnLine(line: string): boolean {
  return DRAWING.test(line);
}
