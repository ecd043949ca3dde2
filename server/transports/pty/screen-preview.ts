// The visible screen as rows of styled runs: what the study page paints, server-rendered, while its
// own terminal is still loading. Pure: it reads a terminal buffer through the few calls it needs.

/** A palette index (0-255) or a "#rrggbb" colour; absent means the terminal's default. */
export type PreviewColor = number | string;

export interface PreviewRun {
  readonly text: string;
  readonly fg?: PreviewColor;
  readonly bg?: PreviewColor;
  readonly bold?: true;
  readonly dim?: true;
  readonly italic?: true;
  readonly underline?: true;
  readonly strike?: true;
  readonly inverse?: true;
  readonly invisible?: true;
  /** One character two cells wide (CJK, emoji): drawn in a box of two cells, whatever its font. */
  readonly wide?: true;
}

export interface ScreenPreview {
  readonly cols: number;
  readonly rows: number;
  /** One entry per row, top to bottom; trailing unstyled blanks are left out. */
  readonly lines: readonly (readonly PreviewRun[])[];
}

/** The parts of @xterm/headless's IBufferCell this reads. */
export interface PreviewCell {
  getChars(): string;
  getWidth(): number;
  isFgDefault(): boolean;
  isFgRGB(): boolean;
  getFgColor(): number;
  isBgDefault(): boolean;
  isBgRGB(): boolean;
  getBgColor(): number;
  isBold(): number;
  isDim(): number;
  isItalic(): number;
  isUnderline(): number;
  isStrikethrough(): number;
  isInverse(): number;
  isInvisible(): number;
}

export interface PreviewBuffer {
  readonly baseY: number;
  getLine(y: number): { getCell(x: number, cell?: PreviewCell): PreviewCell | undefined } | undefined;
  getNullCell(): PreviewCell;
}

type Style = Omit<PreviewRun, "text">;

const hex = (rgb: number) => `#${rgb.toString(16).padStart(6, "0")}`;

function styleOf(cell: PreviewCell): Style {
  const style: { -readonly [K in keyof Style]: Style[K] } = {};
  if (!cell.isFgDefault()) style.fg = cell.isFgRGB() ? hex(cell.getFgColor()) : cell.getFgColor();
  if (!cell.isBgDefault()) style.bg = cell.isBgRGB() ? hex(cell.getBgColor()) : cell.getBgColor();
  if (cell.isBold()) style.bold = true;
  if (cell.isDim()) style.dim = true;
  if (cell.isItalic()) style.italic = true;
  if (cell.isUnderline()) style.underline = true;
  if (cell.isStrikethrough()) style.strike = true;
  if (cell.isInverse()) style.inverse = true;
  if (cell.isInvisible()) style.invisible = true;
  return style;
}

const sameStyle = (a: Style, b: Style) =>
  a.fg === b.fg &&
  a.bg === b.bg &&
  a.bold === b.bold &&
  a.dim === b.dim &&
  a.italic === b.italic &&
  a.underline === b.underline &&
  a.strike === b.strike &&
  a.inverse === b.inverse &&
  a.invisible === b.invisible;

/** Blank with nothing that would show: safe to drop at the end of a row. */
const invisibleBlank = (run: PreviewRun) =>
  !run.wide && run.text.trim() === "" && run.bg === undefined && !run.inverse && !run.underline && !run.strike;

export function previewScreen(buffer: PreviewBuffer, cols: number, rows: number): ScreenPreview {
  const cell = buffer.getNullCell();
  const lines: PreviewRun[][] = [];
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    const runs: PreviewRun[] = [];
    let text = "";
    let style: Style | undefined;
    for (let x = 0; line && x < cols; x++) {
      if (!line.getCell(x, cell)) break;
      if (cell.getWidth() === 0) continue; // the second half of a wide character
      const next = styleOf(cell);
      if (cell.getWidth() === 2) {
        if (style && text) runs.push({ ...style, text });
        runs.push({ ...next, text: cell.getChars(), wide: true });
        style = undefined;
        text = "";
        continue;
      }
      if (style && !sameStyle(style, next)) {
        runs.push({ ...style, text });
        text = "";
      }
      style = next;
      text += cell.getChars() || " ";
    }
    if (style && text) runs.push({ ...style, text });
    while (runs.length > 0 && invisibleBlank(runs[runs.length - 1]!)) runs.pop();
    const last = runs[runs.length - 1];
    if (last && !last.wide && last.bg === undefined && !last.inverse) runs[runs.length - 1] = { ...last, text: last.text.trimEnd() };
    lines.push(runs);
  }
  return { cols, rows, lines };
}
