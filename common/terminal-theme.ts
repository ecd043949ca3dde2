// Terminal colours readable in daylight (light) and at night (dark): one palette for xterm.js, for the
// server-rendered screen preview (app/study/ScreenPreview.tsx) and for the server mirror's answers to
// colour queries (server/transports/pty/terminal-colours.ts). Every one of the 16 ANSI colours reaches
// WCAG AA (4.5:1) on its theme's background (app/components/terminal-theme.test.ts), and xterm.js's
// minimumContrastRatio lifts whatever an agent paints on its own backgrounds. Browser-safe: common/.
import type { ITheme } from "@xterm/xterm";

const ANSI_NAMES = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "brightBlack",
  "brightRed",
  "brightGreen",
  "brightYellow",
  "brightBlue",
  "brightMagenta",
  "brightCyan",
  "brightWhite",
] as const;

/** On the dark background: xterm.js's own colours, with black and the dark blues and reds lifted. */
export const DARK_ANSI = [
  "#7a8089",
  "#f2686b",
  "#6cc24a",
  "#d6b53c",
  "#6e9ee6",
  "#c48ad6",
  "#3fbfbf",
  "#d3d7cf",
  "#8b929c",
  "#ff8585",
  "#8ae234",
  "#fce94f",
  "#8fb8f5",
  "#dba8e6",
  "#5ee6e6",
  "#eeeeec",
];

/** On the light background: every colour dark enough to read, bright ones included. */
export const LIGHT_ANSI = [
  "#2e3436",
  "#b3191c",
  "#3a7304",
  "#7a5f00",
  "#2a5597",
  "#7a4a80",
  "#05706f",
  "#5d636d",
  "#555753",
  "#c0201e",
  "#2f6b00",
  "#6e5600",
  "#1f5bb8",
  "#8a3f91",
  "#006b70",
  "#3a3f47",
];

export const DARK = { background: "#101215", foreground: "#e6e3dc", cursor: "#5cc0a3", selectionBackground: "#2f4f47" };
export const LIGHT = { background: "#fbfaf6", foreground: "#1d2025", cursor: "#2f6f5e", selectionBackground: "#cfe5dd" };

/** xterm.js raises any text colour below this contrast against its background (WCAG AA). */
export const MINIMUM_CONTRAST_RATIO = 4.5;

export function terminalTheme(dark: boolean): ITheme {
  const ansi = dark ? DARK_ANSI : LIGHT_ANSI;
  return { ...(dark ? DARK : LIGHT), ...Object.fromEntries(ANSI_NAMES.map((name, i) => [name, ansi[i]])) };
}

export const THEME_CHOICES = ["auto", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** Whether `choice` means the dark theme, given whether the system prefers dark. */
export function isDark(choice: ThemeChoice, systemDark: boolean): boolean {
  return choice === "auto" ? systemDark : choice === "dark";
}

/** Colours 16-255 of the 256-colour palette: a 6x6x6 cube, then 24 greys (as xterm.js computes them). */
export function xterm256(index: number): string {
  const hex = (n: number) => n.toString(16).padStart(2, "0");
  if (index >= 232) {
    const grey = hex(8 + (index - 232) * 10);
    return `#${grey}${grey}${grey}`;
  }
  const steps = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff];
  const i = index - 16;
  return `#${hex(steps[Math.floor(i / 36) % 6]!)}${hex(steps[Math.floor(i / 6) % 6]!)}${hex(steps[i % 6]!)}`;
}

/**
 * CSS custom properties (--ansi-0..15, --term-fg, --term-bg) for `selector`: the system's scheme,
 * unless the learner chose a theme on this device (<html data-terminal-theme>).
 */
export function paletteCss(selector: string): string {
  const vars = (ansi: string[], base: typeof DARK) =>
    [...ansi.map((hex, i) => `--ansi-${i}:${hex}`), `--term-fg:${base.foreground}`, `--term-bg:${base.background}`].join(";");
  return (
    `${selector}{${vars(DARK_ANSI, DARK)}}@media (prefers-color-scheme: light){${selector}{${vars(LIGHT_ANSI, LIGHT)}}}` +
    `html[data-terminal-theme="dark"] ${selector}{${vars(DARK_ANSI, DARK)}}html[data-terminal-theme="light"] ${selector}{${vars(LIGHT_ANSI, LIGHT)}}`
  );
}
