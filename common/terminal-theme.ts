// Terminal colours readable in daylight (light) and at night (dark): one palette for xterm.js and for
// the server-rendered screen preview (app/study/ScreenPreview.tsx), and for the server mirror's answers to
// colour queries (server/transports/pty/terminal-colours.ts). Browser-safe: it lives in common/.
import type { ITheme } from "@xterm/xterm";

const ANSI_NAMES = [
  "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
  "brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta", "brightCyan", "brightWhite",
] as const;

/** xterm.js's own default 16 colours. */
const DARK_ANSI = [
  "#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
  "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
];

/** Bright yellow and white vanish on a light background: darken them. */
const LIGHT_ANSI = DARK_ANSI.map((hex, i) => ({ 3: "#8a6d00", 7: "#5d636d", 11: "#7a5f00", 15: "#3a3f47" })[i] ?? hex);

const DARK = { background: "#101215", foreground: "#e6e3dc", cursor: "#5cc0a3", selectionBackground: "#2f4f47" };
const LIGHT = { background: "#fbfaf6", foreground: "#1d2025", cursor: "#2f6f5e", selectionBackground: "#cfe5dd" };

export function terminalTheme(dark: boolean): ITheme {
  const ansi = dark ? DARK_ANSI : LIGHT_ANSI;
  return { ...(dark ? DARK : LIGHT), ...Object.fromEntries(ANSI_NAMES.map((name, i) => [name, ansi[i]])) };
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

/** CSS custom properties (--ansi-0..15, --term-fg, --term-bg) for `selector`, in both colour schemes. */
export function paletteCss(selector: string): string {
  const vars = (ansi: string[], base: typeof DARK) =>
    [...ansi.map((hex, i) => `--ansi-${i}:${hex}`), `--term-fg:${base.foreground}`, `--term-bg:${base.background}`].join(";");
  return `${selector}{${vars(DARK_ANSI, DARK)}}@media (prefers-color-scheme: light){${selector}{${vars(LIGHT_ANSI, LIGHT)}}}`;
}
