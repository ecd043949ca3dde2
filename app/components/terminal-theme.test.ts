import { describe, expect, it } from "vitest";
import { contrastRatio } from "./contrast";
import { DARK, DARK_ANSI, LIGHT, LIGHT_ANSI, isDark, terminalTheme } from "./terminal-theme";

describe("contrastRatio", () => {
  it.each([
    ["#000000", "#ffffff", 21],
    ["#ffffff", "#ffffff", 1],
    ["#777777", "#ffffff", 4.48],
  ])("%s on %s is %f:1", (a, b, expected) => {
    expect(contrastRatio(a, b)).toBeCloseTo(expected, 2);
  });
});

describe("terminal themes", () => {
  it.each([
    ["dark", DARK_ANSI, DARK],
    ["light", LIGHT_ANSI, LIGHT],
  ] as const)("every ANSI colour and the foreground of the %s theme reach WCAG AA on its background", (_name, ansi, base) => {
    expect(ansi).toHaveLength(16);
    for (const colour of [...ansi, base.foreground]) expect(contrastRatio(colour, base.background), colour).toBeGreaterThanOrEqual(4.5);
  });

  it("selected text stays readable", () => {
    expect(contrastRatio(LIGHT.foreground, LIGHT.selectionBackground)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(DARK.foreground, DARK.selectionBackground)).toBeGreaterThanOrEqual(4.5);
  });

  it("maps the 16 colours onto xterm's names", () => {
    const theme = terminalTheme(false);
    expect(theme.brightCyan).toBe(LIGHT_ANSI[14]);
    expect(theme.black).toBe(LIGHT_ANSI[0]);
    expect(terminalTheme(true).background).toBe(DARK.background);
  });

  it.each([
    ["auto", true, true],
    ["auto", false, false],
    ["light", true, false],
    ["dark", false, true],
  ] as const)("choice %s with a dark system (%s) is dark: %s", (choice, system, dark) => {
    expect(isDark(choice, system)).toBe(dark);
  });
});
