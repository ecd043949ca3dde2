// Everything a learner can see of a terminal, and every mode that changes what the next byte or key
// does, as plain data: the fidelity tests compare a restored terminal to one that saw the whole stream
// with this, cell by cell (never by text).
import type { IBuffer, IBufferCell, Terminal as HeadlessTerminal } from "@xterm/headless";
import { savedCursor, sgr } from "./exact-snapshot.ts";
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
  return `${chars}|${cell.getWidth()}|${sgr(cell as unknown as AttrLike)}`;
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
