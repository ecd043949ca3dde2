// The parts of a headless xterm's private core that its public API does not expose and an exact
// snapshot needs (docs/architecture.md, "What the snapshot adds"). Read-only, in one place, so that an
// xterm upgrade that renames one of them fails here, in terminal-state.test.ts, and nowhere else.
import type { Terminal as HeadlessTerminal } from "@xterm/headless";

/** An xterm AttributeData (the pen, the saved pen): the same reads as the public IBufferCell. */
export interface AttrLike {
  isBold(): number;
  isDim(): number;
  isItalic(): number;
  isUnderline(): number;
  isBlink(): number;
  isInverse(): number;
  isInvisible(): number;
  isStrikethrough(): number;
  isOverline(): number;
  getFgColorMode(): number;
  getFgColor(): number;
  getBgColorMode(): number;
  getBgColor(): number;
  getUnderlineStyle?(): number;
}

interface CoreBuffer {
  x: number;
  y: number;
  scrollTop: number;
  scrollBottom: number;
  savedX: number;
  savedY: number;
  savedCurAttrData: AttrLike;
}

interface Core {
  coreService: {
    isCursorHidden: boolean;
    decPrivateModes: { cursorStyle?: "block" | "underline" | "bar"; cursorBlink?: boolean; applicationKeypad: boolean };
  };
  coreMouseService: { activeEncoding: string };
  _charsetService: { glevel: number; _charsets: (object | undefined)[] };
  _inputHandler: { _curAttrData: AttrLike };
  buffer: CoreBuffer;
}

/** What the snapshot reads from the core. */
export interface CoreState {
  readonly cursorHidden: boolean;
  readonly cursorStyle: "block" | "underline" | "bar" | undefined;
  readonly cursorBlink: boolean | undefined;
  /** "DEFAULT" | "SGR" | "SGR_PIXELS" (xterm's names). */
  readonly mouseEncoding: string;
  /** The final byte that designates each of G0..G3 ("B": US ASCII), and which one is GL. */
  readonly charsets: readonly string[];
  readonly glevel: number;
  readonly pen: AttrLike;
  readonly scrollTop: number;
  readonly scrollBottom: number;
  readonly saved: { readonly x: number; readonly y: number; readonly pen: AttrLike };
}

function core(terminal: HeadlessTerminal): Core {
  return (terminal as unknown as { _core: Core })._core;
}

/** Charset tables by the final byte that designates them; xterm shares one object per table. */
const charsetNames = new Map<object, string>();
function charsetName(table: object | undefined, make: () => HeadlessTerminal): string {
  if (!table) return "B";
  if (charsetNames.size === 0) {
    const scratch = make();
    const service = core(scratch)._charsetService;
    for (const final of "0AB4C5RQKYE6ZH7=") {
      (scratch as unknown as { _core: { _inputHandler: { selectCharset(c: string): void } } })._core._inputHandler.selectCharset(
        `(${final}`,
      );
      const designated = service._charsets[0];
      if (designated && !charsetNames.has(designated)) charsetNames.set(designated, final);
    }
    scratch.dispose();
  }
  return charsetNames.get(table) ?? "B";
}

export function readCore(terminal: HeadlessTerminal): CoreState {
  const c = core(terminal);
  const make = () => new (terminal.constructor as new (o: object) => HeadlessTerminal)({ cols: 2, rows: 1, allowProposedApi: true });
  const buffer = c.buffer;
  return {
    cursorHidden: c.coreService.isCursorHidden,
    cursorStyle: c.coreService.decPrivateModes.cursorStyle,
    cursorBlink: c.coreService.decPrivateModes.cursorBlink,
    mouseEncoding: c.coreMouseService.activeEncoding,
    charsets: [0, 1, 2, 3].map((g) => charsetName(c._charsetService._charsets[g], make)),
    glevel: c._charsetService.glevel,
    pen: c._inputHandler._curAttrData,
    scrollTop: buffer.scrollTop,
    scrollBottom: buffer.scrollBottom,
    saved: { x: buffer.savedX, y: buffer.savedY, pen: buffer.savedCurAttrData },
  };
}
