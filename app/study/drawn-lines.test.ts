import { describe, expect, it } from "vitest";
import { isDrawnLine } from "./drawn-lines";

describe("isDrawnLine", () => {
  const table: [string, string, boolean][] = [
    ["a sentence", " Unable to connect to Anthropic services", false],
    ["a URL", " countries at https://anthropic.com/supported-countries", false],
    ["ASCII punctuation only", "--- (exit 1) | see above ---", false],
    ["an empty line", "", false],
    ["a box's top edge", "╭──────────────────────────────╮", true],
    ["text inside a box", "│ Welcome to Claude Code!      │", true],
    ["a block-letter logo", " ▐▛███▜▌   Claude Code", true],
    ["a shaded logo", "░▒▓ gemini ▓▒░", true],
    ["a Braille spinner", "⠋ Connecting", true],
  ];
  it.each(table)("%s", (_name, line, drawn) => expect(isDrawnLine(line)).toBe(drawn));
});
