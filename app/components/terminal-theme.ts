// Terminal colours readable in daylight (light) and at night (dark).
import type { ITheme } from "@xterm/xterm";

export function terminalTheme(dark: boolean): ITheme {
  return dark
    ? { background: "#101215", foreground: "#e6e3dc", cursor: "#5cc0a3", selectionBackground: "#2f4f47" }
    : {
        background: "#fbfaf6",
        foreground: "#1d2025",
        cursor: "#2f6f5e",
        selectionBackground: "#cfe5dd",
        // Bright yellow and white vanish on a light background: darken them.
        yellow: "#8a6d00",
        brightYellow: "#7a5f00",
        white: "#5d636d",
        brightWhite: "#3a3f47",
      };
}
