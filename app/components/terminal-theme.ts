// The learner's terminal theme choice on this device (remembered in localStorage; "auto" follows the
// system) and applying it to an xterm.js terminal. The palette is common/terminal-theme.ts.
import type { Terminal } from "@xterm/xterm";
import { MINIMUM_CONTRAST_RATIO, isDark, terminalTheme, type ThemeChoice, THEME_CHOICES } from "../../common/terminal-theme";

// The palette itself is shared with the server (common/terminal-theme.ts).
export * from "../../common/terminal-theme";

const STORAGE_KEY = "studyloop.terminalTheme";
const CHANGED_EVENT = "studyloop:terminal-theme";

export function storedThemeChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return (THEME_CHOICES as readonly string[]).includes(value ?? "") ? (value as ThemeChoice) : "auto";
  } catch {
    return "auto";
  }
}

/** Calls `onChange` whenever the choice changes on this page; returns a function that stops. */
export function onThemeChoice(onChange: () => void): () => void {
  window.addEventListener(CHANGED_EVENT, onChange);
  return () => window.removeEventListener(CHANGED_EVENT, onChange);
}

export function chooseTerminalTheme(choice: ThemeChoice): void {
  try {
    localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Private mode: the choice lasts until the page closes.
  }
  window.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: choice }));
}

/**
 * Gives `term` the learner's theme and the minimum contrast, and keeps it in step with the stored
 * choice and the system's scheme; marks <html data-terminal-theme> for the frame around it.
 * Returns a function that stops following.
 */
export function followTerminalTheme(term: Pick<Terminal, "options">): () => void {
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  let choice = storedThemeChoice();
  const apply = () => {
    const dark = isDark(choice, media.matches);
    term.options.theme = terminalTheme(dark);
    term.options.minimumContrastRatio = MINIMUM_CONTRAST_RATIO;
    document.documentElement.dataset.terminalTheme = dark ? "dark" : "light";
  };
  const onChoice = (event: Event) => {
    choice = (event as CustomEvent<ThemeChoice>).detail;
    apply();
  };
  apply();
  media.addEventListener("change", apply);
  window.addEventListener(CHANGED_EVENT, onChoice);
  return () => {
    media.removeEventListener("change", apply);
    window.removeEventListener(CHANGED_EVENT, onChoice);
  };
}
