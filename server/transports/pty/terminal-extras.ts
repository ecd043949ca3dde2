// What a headless xterm neither keeps nor answers, kept beside it: the window title, the colours a
// program set (OSC 10/11/12), the kitty keyboard flags, and the answers to the queries xterm.js leaves
// to its renderer or does not know (OSC 4/10/11/12 "?", XTVERSION, kitty "CSI ? u", CSI 18 t). xterm
// answers DA1/DA2, DSR/CPR, DECRQM and DECRQSS itself; together they make the mirror the one terminal
// that answers a program's queries (pages swallow them: app/study/terminal-queries.ts).
import type { Terminal as HeadlessTerminal } from "@xterm/headless";

/** The colours the mirror reports as its own: those of the page that sized the terminal. */
export interface TerminalColours {
  readonly foreground: string;
  readonly background: string;
  readonly cursor: string;
  /** The 16 ANSI colours, "#rrggbb". */
  readonly ansi: readonly string[];
}

/** What XTVERSION answers: the renderer every page uses. */
export const TERMINAL_VERSION = "xterm.js(6.0.0)";

export interface ExtrasState {
  readonly title: string;
  /** Colours set by the program (OSC 10/11/12), by number; reset ones are absent. */
  readonly colours: Readonly<Record<string, string>>;
  /** The kitty keyboard protocol's flag stack (top last); xterm.js does not implement the protocol. */
  readonly kittyFlags: readonly number[];
}

const ST = "\x1b\\";

/** "#rrggbb" as xterm reports colours: rgb:rrrr/gggg/bbbb. */
export function xtermRgb(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return "rgb:0000/0000/0000";
  return `rgb:${m
    .slice(1, 4)
    .map((c) => c.toLowerCase().repeat(2))
    .join("/")}`;
}

/** Colours 16-255 of the 256-colour palette, as xterm.js computes them. */
function palette256(index: number): string {
  const hex = (n: number) => n.toString(16).padStart(2, "0");
  if (index >= 232) {
    const grey = hex(8 + (index - 232) * 10);
    return `#${grey}${grey}${grey}`;
  }
  const steps = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff];
  const i = index - 16;
  return `#${hex(steps[Math.floor(i / 36) % 6]!)}${hex(steps[Math.floor(i / 6) % 6]!)}${hex(steps[i % 6]!)}`;
}

export class TerminalExtras {
  private title = "";
  private readonly colours = new Map<number, string>();
  private kittyMain: number[] = [];
  private kittyAlt: number[] = [];
  private readonly disposables: { dispose(): void }[] = [];

  /** `reply` gets each answer, as the terminal's onData gets xterm's own. */
  constructor(
    private readonly terminal: HeadlessTerminal,
    private theme: TerminalColours,
    private readonly reply: (data: string) => void,
  ) {
    const parser = terminal.parser;
    this.disposables.push(
      terminal.onTitleChange((title) => (this.title = title)),
      ...[10, 11, 12].map((n) => parser.registerOscHandler(n, (data) => this.dynamicColour(n, data))),
      ...[110, 111, 112].map((n) => parser.registerOscHandler(n, () => (this.colours.delete(n - 100), false))),
      parser.registerOscHandler(4, (data) => this.paletteQuery(data)),
      parser.registerCsiHandler({ prefix: ">", final: "q" }, () => (this.reply(`\x1bP>|${TERMINAL_VERSION}${ST}`), true)),
      parser.registerCsiHandler({ final: "t" }, (params) => this.windowReport(params)),
      parser.registerCsiHandler({ prefix: "?", final: "u" }, () => (this.reply(`\x1b[?${this.kittyTop()}u`), true)),
      parser.registerCsiHandler({ prefix: ">", final: "u" }, (params) => (this.kitty().push(num(params[0])), this.trimKitty(), true)),
      parser.registerCsiHandler({ prefix: "<", final: "u" }, (params) => {
        const stack = this.kitty();
        stack.splice(Math.max(0, stack.length - Math.max(1, num(params[0]))));
        return true;
      }),
      parser.registerCsiHandler({ prefix: "=", final: "u" }, (params) => this.kittySet(num(params[0]), num(params[1]) || 1)),
    );
  }

  /** The page whose colours the terminal reports changed (see TerminalSession). */
  setTheme(theme: TerminalColours): void {
    this.theme = theme;
  }

  state(): ExtrasState {
    return {
      title: this.title,
      colours: Object.fromEntries([...this.colours].map(([n, c]) => [String(n), c])),
      kittyFlags: [...this.kitty()],
    };
  }

  /** Sequences that restore this state in a terminal with the same extras installed. */
  serialize(options: { excludeModes?: boolean } = {}): string {
    let out = "";
    if (this.title) out += `\x1b]2;${this.title}${ST}`;
    for (const [n, colour] of this.colours) out += `\x1b]${n};${colour}${ST}`;
    if (!options.excludeModes) for (const flags of this.kitty()) out += `\x1b[>${flags}u`;
    return out;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private kitty(): number[] {
    return this.terminal.buffer.active.type === "alternate" ? this.kittyAlt : this.kittyMain;
  }

  private kittyTop(): number {
    const stack = this.kitty();
    return stack[stack.length - 1] ?? 0;
  }

  private trimKitty(): void {
    const stack = this.kitty();
    if (stack.length > 16) stack.shift(); // kitty keeps a bounded stack too
  }

  private kittySet(flags: number, mode: number): boolean {
    const stack = this.kitty();
    const top = this.kittyTop();
    const next = mode === 2 ? top | flags : mode === 3 ? top & ~flags : flags;
    if (stack.length === 0) stack.push(next);
    else stack[stack.length - 1] = next;
    return true;
  }

  /** OSC 10/11/12: "?" is a query (answered here); anything else sets a colour (also tracked here). */
  private dynamicColour(first: number, data: string): boolean {
    // One OSC may carry several: "10;?;?" asks for the foreground, then the background.
    data.split(";").forEach((spec, i) => {
      const n = first + i;
      if (n > 12) return;
      if (spec === "?") this.reply(`\x1b]${n};${xtermRgb(this.colours.get(n) ?? this.themeColour(n))}${ST}`);
      else if (spec) this.colours.set(n, spec);
    });
    return false; // let xterm apply sets as well (a page's renderer shows them)
  }

  private themeColour(n: number): string {
    return n === 10 ? this.theme.foreground : n === 11 ? this.theme.background : this.theme.cursor;
  }

  /** OSC 4;n;? queries: answered from the page's palette. Sets go on to xterm. */
  private paletteQuery(data: string): boolean {
    const parts = data.split(";");
    for (let i = 0; i + 1 < parts.length; i += 2) {
      if (parts[i + 1] !== "?") continue;
      const index = Number(parts[i]);
      if (!Number.isInteger(index) || index < 0 || index > 255) continue;
      const colour = index < 16 ? (this.theme.ansi[index] ?? "#000000") : palette256(index);
      this.reply(`\x1b]4;${index};${xtermRgb(colour)}${ST}`);
    }
    return false;
  }

  /** CSI 18 t: the text area's size in characters (xterm.js leaves window reports off by default). */
  private windowReport(params: (number | number[])[]): boolean {
    if (num(params[0]) !== 18) return false;
    this.reply(`\x1b[8;${this.terminal.rows};${this.terminal.cols}t`);
    return true;
  }
}

function num(param: number | number[] | undefined): number {
  return typeof param === "number" ? param : Array.isArray(param) ? (param[0] ?? 0) : 0;
}
