// A snapshot that restores exactly: @xterm/addon-serialize's cells, read through a view clipped to the
// terminal's width, then what the addon leaves out, read from the terminal itself (xterm-core.ts) and
// from TerminalExtras. The gap list is in docs/architecture.md ("What the snapshot adds").
import serializeAddon from "@xterm/addon-serialize";
import type { IBuffer, IBufferCell, IBufferLine, Terminal as HeadlessTerminal } from "@xterm/headless";
import { readCore, type AttrLike } from "./xterm-core.ts";
import type { TerminalExtras } from "./terminal-extras.ts";

// Under Node ESM the CommonJS addon only has a default export (see STACK-NOTES "xterm on the server").
const { SerializeAddon } = serializeAddon;

/** xterm's colour modes (Attributes.CM_*), as getFgColorMode() returns them. */
export const CM_P16 = 0x1000000;
export const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;

/** SGR parameters for a pen or a cell, from a reset. */
export function sgr(attr: AttrLike): string {
  const p = ["0"];
  if (attr.isBold()) p.push("1");
  if (attr.isDim()) p.push("2");
  if (attr.isItalic()) p.push("3");
  if (attr.isUnderline()) {
    const style = attr.getUnderlineStyle?.() ?? 1;
    p.push(style > 1 ? `4:${style}` : "4");
  }
  if (attr.isBlink()) p.push("5");
  if (attr.isInverse()) p.push("7");
  if (attr.isInvisible()) p.push("8");
  if (attr.isStrikethrough()) p.push("9");
  if (attr.isOverline()) p.push("53");
  const colour = (mode: number, value: number, base: number, bright: number) => {
    if (mode === CM_P16) p.push(String(value < 8 ? base + value : bright + value - 8));
    else if (mode === CM_P256) p.push(`${base + 8};5;${value}`);
    else if (mode === CM_RGB) p.push(`${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`);
  };
  colour(attr.getFgColorMode(), attr.getFgColor(), 30, 90);
  colour(attr.getBgColorMode(), attr.getBgColor(), 40, 100);
  return `\x1b[${p.join(";")}m`;
}

/**
 * The buffer as the addon should see it: each line no longer than the terminal is wide. After a resize
 * narrower, xterm keeps the old cells of alternate-screen lines beyond the edge (invisible); written
 * out, each such row would wrap onto two.
 */
function clippedBuffer(buffer: IBuffer, cols: number, rows: number): IBuffer {
  // The alternate screen never reflows: its rows are written one by one, none as the continuation of
  // the one above (the addon's continuation logic assumes rows as wide as the terminal, which rows that
  // wrapped at an earlier, narrower size are not).
  const unwrap = buffer.type === "alternate";
  const clipLine = (line: IBufferLine, continued: boolean): IBufferLine => {
    // A soft wrap with empty cells at the end of the row or the start of its continuation (programs
    // that move with CHA instead of printing spaces): the addon skips empty cells with CUF, which stops
    // at the edge instead of wrapping, so the next row's text lands on this one. Written as spaces
    // (identical on screen and in copied text), they wrap.
    const blankFrom = continued ? trailingBlankFrom(line, cols) : cols;
    const blankTo = !unwrap && line.isWrapped ? leadingBlankTo(line, cols) : 0;
    if (line.length <= cols && !(unwrap && line.isWrapped) && blankFrom >= cols && blankTo === 0) return line;
    return new Proxy(line, {
      get(target, key) {
        if (key === "isWrapped") return unwrap ? false : target.isWrapped;
        if (key === "length") return Math.min(cols, target.length);
        if (key === "getCell")
          return (x: number, cell?: IBufferCell) => {
            if (x >= cols) return undefined;
            const found = target.getCell(x, cell);
            return found && (x >= blankFrom || x < blankTo) ? asSpace(found) : found;
          };
        if (key === "translateToString")
          return (trim?: boolean, start = 0, end = cols) => target.translateToString(trim, start, Math.min(end, cols));
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
  // The alternate screen's rows as xterm renders them: from its baseY, `rows` of them. After some
  // resize sequences xterm leaves baseY > 0 on the alternate buffer (which holds only `rows` lines), and
  // its renderer then shows lines from the start again below them (its line list is circular); written
  // out from line 0 instead, the screen's rows would come out shifted (docs/xterm-alt-buffer-base.md).
  const top = unwrap ? buffer.baseY : 0;
  return new Proxy(buffer, {
    get(target, key) {
      if (key === "getLine")
        return (y: number) => {
          const line = target.getLine(top + y);
          return line ? clipLine(line, !unwrap && (target.getLine(top + y + 1)?.isWrapped ?? false)) : undefined;
        };
      if (unwrap && key === "length") return rows;
      if (unwrap && (key === "baseY" || key === "viewportY")) return 0;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Where a row's run of empty cells (no character at all) that reaches its last column starts. */
function trailingBlankFrom(line: IBufferLine, cols: number): number {
  let x = Math.min(cols, line.length);
  while (x > 0 && line.getCell(x - 1)?.getChars() === "" && line.getCell(x - 1)?.getWidth() === 1) x--;
  return x;
}

/** Where a row's run of empty cells from its first column ends. */
function leadingBlankTo(line: IBufferLine, cols: number): number {
  const end = Math.min(cols, line.length);
  let x = 0;
  while (x < end && line.getCell(x)?.getChars() === "" && line.getCell(x)?.getWidth() === 1) x++;
  return x === end ? 0 : x;
}

/** An empty cell presented as a space in the same colours. */
function asSpace(cell: IBufferCell): IBufferCell {
  if (cell.getChars() !== "") return cell;
  return new Proxy(cell, {
    get(target, key) {
      if (key === "getChars") return () => " ";
      if (key === "getCode") return () => 32;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The terminal as the addon should see it (it reads only buffers, size and modes). */
function clippedTerminal(terminal: HeadlessTerminal): HeadlessTerminal {
  const buffers = {
    get active() {
      return clippedBuffer(terminal.buffer.active, terminal.cols, terminal.rows);
    },
    get normal() {
      return clippedBuffer(terminal.buffer.normal, terminal.cols, terminal.rows);
    },
    get alternate() {
      return clippedBuffer(terminal.buffer.alternate, terminal.cols, terminal.rows);
    },
  };
  return new Proxy(terminal, {
    get(target, key) {
      if (key === "buffer") return buffers;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export interface ExactSerializer {
  serialize(options?: { excludeModes?: boolean }): string;
  dispose(): void;
}

export function exactSerializer(terminal: HeadlessTerminal, extras: TerminalExtras): ExactSerializer {
  const addon = new SerializeAddon();
  // Activated on the clipped view, not loaded into the terminal: the addon reads through the view.
  addon.activate(clippedTerminal(terminal) as unknown as Parameters<typeof addon.activate>[0]);
  return {
    serialize: (options = {}) =>
      resetBeforeAltScreen(boldAfterDimOff(addon.serialize({ excludeModes: true }))) +
      afterCells(terminal, extras, options.excludeModes ?? false),
    dispose: () => addon.dispose(),
  };
}

const ALT_SCREEN = "\x1b[?1049h\x1b[H";

/** An SGR of the addon's with a `1` and, after it, a `22` (the cheap filter before the exact check). */
const BOLD_THEN_NORMAL = /\x1b\[((?:\d+;)*1;(?:\d+;)*22(?:;\d+)*)m/g;

/**
 * Going from dim to bold text, the addon writes bold on (`1`) and then dim off (`22`), but SGR 22
 * turns off both, so the bold was lost (codex's sign-in screen: "Press **enter**" after dim text). In
 * such an SGR the `22` can only be dim's: it is moved before the `1`. The addon's other intensity
 * steps are right, except from bold and dim together to one of them, left as it is (rare, and its
 * single `22` does not say which of the two was meant).
 */
export function boldAfterDimOff(data: string): string {
  return data.replace(BOLD_THEN_NORMAL, (whole: string, params: string) => {
    const tokens: string[] = [];
    const parts = params.split(";");
    for (let i = 0; i < parts.length; i++) {
      // 38/48;5;N and 38/48;2;R;G;B are one token: their numbers are colours, not attributes.
      const extended = (parts[i] === "38" || parts[i] === "48") && (parts[i + 1] === "5" ? 2 : parts[i + 1] === "2" ? 4 : 0);
      tokens.push(parts.slice(i, i + 1 + (extended || 0)).join(";"));
      i += extended || 0;
    }
    const bold = tokens.indexOf("1");
    const normal = tokens.lastIndexOf("22");
    if (bold < 0 || normal < bold) return whole;
    tokens.splice(normal, 1);
    return `\x1b[22;${tokens.join(";")}m`;
  });
}

/**
 * The addon writes the alternate screen's cells as if the pen were reset when it switches to it, but
 * leaves the pen of the normal screen's last cell on (its first cells then come out bold, inverse...),
 * and the switch itself clears the alternate screen with that pen's background. Reset it first.
 * (Cells never contain ESC, so the addon's own switch is the only match.)
 */
function resetBeforeAltScreen(data: string): string {
  const at = data.lastIndexOf(ALT_SCREEN);
  return at < 0 ? data : `${data.slice(0, at)}\x1b[0m${data.slice(at)}`;
}

const mode = (on: boolean, n: number | string) => `\x1b[${n}${on ? "h" : "l"}`;
const DECSCUSR = { block: 1, underline: 3, bar: 5 } as const;
const MOUSE_PROTOCOL = { none: "", x10: "\x1b[?9h", vt200: "\x1b[?1000h", drag: "\x1b[?1002h", any: "\x1b[?1003h" } as const;
const MOUSE_ENCODING: Record<string, string> = { SGR: "\x1b[?1006h", SGR_PIXELS: "\x1b[?1016h" };

/**
 * Everything after the cells, in an order that keeps each step from undoing the one before: the
 * scroll region (DECSTBM homes the cursor), the saved cursor, the cursor (re-printing the last cell
 * when a wrap is pending), charsets, modes (origin mode last: it homes the cursor, so the cursor is
 * placed relative to the region after it), then the pen.
 */
function afterCells(terminal: HeadlessTerminal, extras: TerminalExtras, excludeModes: boolean): string {
  const core = readCore(terminal);
  const buffer = terminal.buffer.active;
  const modes = terminal.modes;
  const { cols, rows } = terminal;
  let out = "\x1b[0m\x1b[4l";
  out += extras.serialize({ excludeModes });
  const fullRegion = core.scrollTop === 0 && core.scrollBottom === rows - 1;
  if (!fullRegion) out += `\x1b[${core.scrollTop + 1};${core.scrollBottom + 1}r`;
  const saved = savedCursor(terminal);
  if (saved.x !== 0 || saved.y !== 0 || saved.pen !== "\x1b[0m") out += `\x1b[${saved.y + 1};${saved.x + 1}H${saved.pen}\x1b7\x1b[0m`;
  const y = buffer.cursorY;
  const originRow = modes.originMode ? core.scrollTop : 0;
  if (modes.originMode) out += "\x1b[?6h";
  if (buffer.cursorX >= cols) out += pendingWrap(buffer, y, cols, originRow);
  else out += `\x1b[${y - originRow + 1};${buffer.cursorX + 1}H`;
  if (!modes.wraparoundMode) out += "\x1b[?7l";
  if (modes.reverseWraparoundMode) out += "\x1b[?45h";
  if (core.cursorHidden) out += "\x1b[?25l";
  if (core.cursorStyle !== undefined || core.cursorBlink !== undefined) {
    const base = DECSCUSR[core.cursorStyle ?? "block"];
    out += `\x1b[${core.cursorBlink ? base : base + 1} q`;
  }
  for (let g = 0; g < 4; g++) if (core.charsets[g] !== "B") out += `\x1b${"()*+"[g]}${core.charsets[g]}`;
  if (core.glevel !== 0) out += ["", "\x0e", "\x1bn", "\x1bo"][core.glevel] ?? "";
  if (modes.insertMode) out += "\x1b[4h";
  if (!excludeModes) {
    if (modes.applicationCursorKeysMode) out += mode(true, "?1");
    if (modes.applicationKeypadMode) out += "\x1b=";
    if (modes.bracketedPasteMode) out += mode(true, "?2004");
    if (modes.sendFocusMode) out += mode(true, "?1004");
    out += MOUSE_PROTOCOL[modes.mouseTrackingMode];
    out += MOUSE_ENCODING[core.mouseEncoding] ?? "";
    if (modes.synchronizedOutputMode) out += mode(true, "?2026");
  }
  return out + sgr(core.pen);
}

/**
 * Where DECRC would put the cursor, and with which colours (xterm keeps the saved row as a line of the
 * whole buffer, and only the pen's colours, not its other attributes: fg/bg words hold both).
 */
export function savedCursor(terminal: HeadlessTerminal): { x: number; y: number; pen: string } {
  const core = readCore(terminal);
  const y = Math.min(Math.max(core.saved.y - terminal.buffer.active.baseY, 0), terminal.rows - 1);
  return { x: Math.min(core.saved.x, terminal.cols - 1), y, pen: sgr(core.saved.pen) };
}

/**
 * The cursor sits past the last column with a wrap pending (the next character goes to the next
 * row). No sequence sets that state; printing the row's last cell again, in its own colours, does.
 */
function pendingWrap(buffer: IBuffer, y: number, cols: number, originRow: number): string {
  const line = buffer.getLine(buffer.baseY + y);
  let x = cols - 1;
  let cell = line?.getCell(x);
  if (cell && cell.getWidth() === 0 && x > 0) cell = line?.getCell(--x); // the right half of a wide char
  const chars = cell?.getChars() || " ";
  return `\x1b[${y - originRow + 1};${x + 1}H${cell ? sgr(cell as unknown as AttrLike) : ""}${chars}\x1b[0m`;
}
