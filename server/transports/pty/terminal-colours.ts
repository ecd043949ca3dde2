// The colours the mirror answers colour queries with: those of the page that sized the terminal
// (sent when it attaches), or, before any page did, the dark theme every page starts from.
import { terminalTheme } from "../../../common/terminal-theme.ts";
import type { TerminalColours } from "./terminal-extras.ts";

export function coloursOf(dark: boolean): TerminalColours {
  const theme = terminalTheme(dark);
  const ansi = [
    theme.black,
    theme.red,
    theme.green,
    theme.yellow,
    theme.blue,
    theme.magenta,
    theme.cyan,
    theme.white,
    theme.brightBlack,
    theme.brightRed,
    theme.brightGreen,
    theme.brightYellow,
    theme.brightBlue,
    theme.brightMagenta,
    theme.brightCyan,
    theme.brightWhite,
  ].map((colour) => colour ?? "#000000");
  return { foreground: theme.foreground ?? "#ffffff", background: theme.background ?? "#000000", cursor: theme.cursor ?? "#ffffff", ansi };
}

export const DEFAULT_TERMINAL_COLOURS: TerminalColours = coloursOf(true);
