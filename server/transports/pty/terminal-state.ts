// Everything a learner can see of a terminal, and every mode that changes what the next byte or key
// does, as plain data: the fidelity tests compare a restored terminal to one that saw the whole stream
// with this, cell by cell (never by text).
import type { IBuffer, IBufferCell, Terminal as HeadlessTerminal } from "@xterm/headless";
import { CM_P16, CM_P256, savedCursor, sgr } from "./exact-snapshot.ts";
import type { TerminalExtras } from "./terminal-extras.ts";
import { readCore, type AttrLike } from "./xterm-core.ts";

/** One cell: its characters, width, and SGR (colours in all modes, attributes). */
export type CellState = string;

export interface TerminalState {
  readonly cols: number;
  readonly rows: number;
  readonly buffer: "normal" | "alternate";
  /**
   * The visible rows, each `cols` cells, plus which rows continue the one above (normal buffer only:
   * the alternate screen never reflows, and a snapshot cannot mark its first row as a continuation).
   */
  readonly screen: readonly (readonly CellState[])[];
  readonly wrapped: readonly boolean[];
  /** The lines above the screen (normal buffer), as text with SGR per cell. */
  readonly scrollback?: readonly string[];
  readonly cursor: { x: number; y: number; wrapPending: boolean; hidden: boolean; style?: string; blink?: boolean };
  readonly scrollRegion: readonly [number, number];
  readonly charsets: readonly string[];
  readonly glevel: number;
  readonly pen: string;
  readonly saved: { x: number; y: number; pen: string };
  readonly modes: HeadlessTerminal["modes"];
  readonly mouseEncoding: string;
  readonly extras?: ReturnType<TerminalExtras["state"]>;
}

export function cellState(cell: IBufferCell | undefined): CellState {
  if (!cell) return "";
  // An empty cell and a space in the same colours look the same and copy the same (xterm's
  // translateToString writes an empty cell as a space): the snapshot may write one as the other.
  const chars = cell.getChars() || (cell.getWidth() === 1 ? " " : "");
  return `${chars}|${cell.getWidth()}|${sgr(lowPaletteAs16(cell as unknown as AttrLike))}`;
}

/**
 * A palette colour below 16 set as `38;5;N` is drawn exactly as the same colour set as `3N`/`9N`
 * (xterm.js's renderers treat both modes alike, bold-as-bright included); the serialize addon writes
 * the short form, so a snapshot may turn one into the other (codex colours its text `38;5;6`).
 */
function lowPaletteAs16(attr: AttrLike): AttrLike {
  const low = (mode: number, value: number) => (mode === CM_P256 && value < 16 ? CM_P16 : mode);
  const fg = low(attr.getFgColorMode(), attr.getFgColor());
  const bg = low(attr.getBgColorMode(), attr.getBgColor());
  if (fg === attr.getFgColorMode() && bg === attr.getBgColorMode()) return attr;
  return new Proxy(attr, {
    get(target, key) {
      if (key === "getFgColorMode") return () => fg;
      if (key === "getBgColorMode") return () => bg;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function rowCells(buffer: IBuffer, y: number, cols: number, cell: IBufferCell): CellState[] {
  const line = buffer.getLine(y);
  const cells: CellState[] = [];
  for (let x = 0; x < cols; x++) cells.push(cellState(line?.getCell(x, cell)));
  return cells;
}

export function readTerminalState(terminal: HeadlessTerminal, extras?: TerminalExtras, opts: { scrollback?: boolean } = {}): TerminalState {
  const buffer = terminal.buffer.active;
  const { cols, rows } = terminal;
  const core = readCore(terminal);
  const cell = buffer.getNullCell();
  const screen: CellState[][] = [];
  const wrapped: boolean[] = [];
  for (let y = 0; y < rows; y++) {
    screen.push(rowCells(buffer, buffer.baseY + y, cols, cell));
    if (buffer.type === "normal") wrapped.push(buffer.getLine(buffer.baseY + y)?.isWrapped ?? false);
  }
  const normal = terminal.buffer.normal;
  const scrollback: string[] = [];
  if (opts.scrollback) {
    for (let y = 0; y < normal.baseY; y++) scrollback.push(rowCells(normal, y, cols, cell).join(""));
  }
  return {
    cols,
    rows,
    buffer: buffer.type,
    screen,
    wrapped,
    ...(opts.scrollback ? { scrollback } : {}),
    cursor: {
      x: Math.min(buffer.cursorX, cols - 1),
      y: buffer.cursorY,
      wrapPending: buffer.cursorX >= cols,
      hidden: core.cursorHidden,
      ...(core.cursorStyle !== undefined ? { style: core.cursorStyle } : {}),
      ...(core.cursorBlink !== undefined ? { blink: core.cursorBlink } : {}),
    },
    scrollRegion: [core.scrollTop, core.scrollBottom],
    charsets: core.charsets,
    glevel: core.glevel,
    pen: sgr(core.pen),
    saved: savedCursor(terminal),
    modes: { ...terminal.modes },
    mouseEncoding: core.mouseEncoding,
    ...(extras ? { extras: extras.state() } : {}),
  };
}
