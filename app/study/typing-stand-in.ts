// While a reloaded page's first replay is parsed, the console's terminal is not on the page yet:
// xterm.js parses a terminal that is not open about twice as fast (no viewport and renderer following
// each of 10,000 line feeds; docs/performance.md, round 6). This stand-in is opened at once in its
// place and takes the learner's keys meanwhile (handed to the same gate as the terminal's, so they
// reach the agent in order, once); it never shows output, and goes when the terminal is opened.
import { Terminal, type ITerminalOptions } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { followTerminalTheme } from "../components/terminal-theme";

export interface TypingStandIn {
  /** The size that would fit the host (the console reports it before its terminal is open). */
  readonly fit: FitAddon;
  /** Whether the learner's focus is in it (the terminal takes the focus over when so). */
  focused(): boolean;
  focus(): void;
  dispose(): void;
}

export function openTypingStandIn(
  element: HTMLElement,
  options: ITerminalOptions,
  input: { typed: (data: string) => void; binary: (data: string) => void },
): TypingStandIn {
  const term = new Terminal(options);
  const stopTheme = followTerminalTheme(term);
  const fit = new FitAddon();
  term.loadAddon(fit);
  const typed = term.onData(input.typed);
  const binary = term.onBinary(input.binary);
  term.open(element);
  // The bench's probe times when a terminal the learner can type into is on the page (bench/lib/probe.js).
  (window as unknown as { __studyloopStandIn?: Terminal }).__studyloopStandIn = term;
  return {
    fit,
    focused: () => !!term.element && term.element.contains(document.activeElement),
    focus: () => term.focus(),
    dispose: () => {
      typed.dispose();
      binary.dispose();
      stopTheme();
      term.dispose();
    },
  };
}
