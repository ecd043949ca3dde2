// The mirror's snapshot, replayed into a fresh headless terminal of the same size, must rebuild the
// same buffers and cursor (normal and alternate screen); excludeModes must leave modes out.
import headless from "@xterm/headless";
import { afterEach, describe, expect, it } from "vitest";
import { MirrorDisposedError, TerminalMirror, type MirrorSnapshot } from "./terminal-mirror.ts";

const { Terminal } = headless;
type HeadlessTerminal = InstanceType<typeof Terminal>;

const ESC = "\x1b[";
const mirrors: TerminalMirror[] = [];
const terminals: HeadlessTerminal[] = [];

afterEach(() => {
  for (const mirror of mirrors.splice(0)) mirror.dispose();
  for (const terminal of terminals.splice(0)) terminal.dispose();
});

function newMirror(cols = 80, rows = 24): TerminalMirror {
  const mirror = new TerminalMirror(cols, rows);
  mirrors.push(mirror);
  return mirror;
}

async function replay(snapshot: MirrorSnapshot): Promise<HeadlessTerminal> {
  const terminal = new Terminal({ cols: snapshot.cols, rows: snapshot.rows, scrollback: 10_000, allowProposedApi: true });
  terminals.push(terminal);
  await new Promise<void>((resolve) => terminal.write(snapshot.data, resolve));
  return terminal;
}

/** Everything visible about a terminal: both buffers' lines, cursors, and which is active. */
function state(terminal: HeadlessTerminal) {
  const lines = (buffer: HeadlessTerminal["buffer"]["normal"]) => {
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) out.push(buffer.getLine(y)?.translateToString(true) ?? "");
    return out;
  };
  const active = terminal.buffer.active;
  return {
    active: active.type,
    cursor: { x: active.cursorX, y: active.cursorY, baseY: active.baseY },
    normal: lines(terminal.buffer.normal),
    alternate: lines(terminal.buffer.alternate),
  };
}

/** A headless terminal fed the same input as the mirror, to compare the replay against the original. */
async function reference(input: string, cols = 80, rows = 24): Promise<HeadlessTerminal> {
  return replay({ data: input, cols, rows });
}

const colourfulLines = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `${ESC}${31 + (i % 7)}m line ${i + 1} ${ESC}1mbold${ESC}0m ${ESC}48;5;${i % 256}m256${ESC}0m 漢字 🙂 ${"x".repeat(i % 90)}\r\n`,
  ).join("");

describe("TerminalMirror", () => {
  it("rebuilds lines, scrollback and cursor from a snapshot", async () => {
    const mirror = newMirror();
    const input = `${colourfulLines(300)}${ESC}10;20Hcursor here${ESC}3D`;
    mirror.write(input);
    const snapshot = await mirror.snapshot();
    const original = await reference(input);
    const restored = await replay(snapshot);
    expect(state(restored)).toEqual(state(original));
    expect(state(restored).normal.length).toBeGreaterThan(300);
    expect(restored.buffer.active.cursorX).toBe(27); // col 20, 11 chars, 3 back
    expect(restored.buffer.active.cursorY).toBe(9);
  });

  it("rebuilds the alternate screen, the normal screen behind it, and the cursor", async () => {
    const mirror = newMirror();
    const input =
      `${colourfulLines(50)}shell prompt$ ` +
      `${ESC}?1049h${ESC}2J${ESC}H${ESC}3;5H+------+${ESC}4;5H| ${ESC}35mBOX${ESC}0m  |${ESC}5;5H+------+${ESC}7;9H`;
    mirror.write(input);
    const snapshot = await mirror.snapshot();
    const restored = await replay(snapshot);
    expect(state(restored)).toEqual(state(await reference(input)));
    expect(restored.buffer.active.type).toBe("alternate");
    expect(restored.buffer.alternate.getLine(3)?.translateToString(true)).toBe("    | BOX  |");
    expect({ x: restored.buffer.active.cursorX, y: restored.buffer.active.cursorY }).toEqual({ x: 8, y: 6 });

    // Leaving the alternate screen after the replay shows the normal screen as it was.
    await new Promise<void>((resolve) => restored.write(`${ESC}?1049l`, resolve));
    expect(restored.buffer.active.type).toBe("normal");
    expect(state(restored).normal.some((line) => line === "shell prompt$ ")).toBe(true);
  });

  it("carries terminal modes unless excludeModes is set", async () => {
    const mirror = newMirror();
    mirror.write(`${ESC}?1h${ESC}?2004h${ESC}?1000h${ESC}?1004hready`);
    const withModes = await replay(await mirror.snapshot());
    expect(withModes.modes.applicationCursorKeysMode).toBe(true);
    expect(withModes.modes.bracketedPasteMode).toBe(true);
    expect(withModes.modes.mouseTrackingMode).toBe("vt200");
    expect(withModes.modes.sendFocusMode).toBe(true);

    const withoutModes = await replay(await mirror.snapshot({ excludeModes: true }));
    expect(withoutModes.modes.applicationCursorKeysMode).toBe(false);
    expect(withoutModes.modes.bracketedPasteMode).toBe(false);
    expect(withoutModes.modes.mouseTrackingMode).toBe("none");
    expect(withoutModes.modes.sendFocusMode).toBe(false);
    expect(state(withoutModes).normal[0]).toBe("ready");
    expect(mirror.serialize({ excludeModes: true })).not.toContain("?1000h");
  });

  it("snapshots exactly what was written before the call, not what is written after", async () => {
    const mirror = newMirror();
    mirror.write("before\r\n");
    const pending = mirror.snapshot();
    mirror.write("after\r\n");
    const restored = await replay(await pending);
    const text = state(restored).normal.join("\n");
    expect(text).toContain("before");
    expect(text).not.toContain("after");
    await mirror.flush();
    expect(mirror.serialize()).toContain("after");
  });

  it("reports pending chars until the write is parsed, and calls back once it is", async () => {
    const mirror = newMirror();
    let parsed = false;
    mirror.write("x".repeat(1_000), () => (parsed = true));
    expect(mirror.pendingChars).toBe(1_000);
    expect(parsed).toBe(false);
    await mirror.flush();
    expect(parsed).toBe(true);
    expect(mirror.pendingChars).toBe(0);
  });

  it("applies a resize after earlier writes and snapshots at the size then in force", async () => {
    const mirror = newMirror(80, 24);
    mirror.write(`${"w".repeat(70)}\r\n`);
    mirror.resize(40, 10);
    expect({ cols: mirror.cols, rows: mirror.rows }).toEqual({ cols: 40, rows: 10 });
    mirror.write("after resize");
    const snapshot = await mirror.snapshot();
    expect({ cols: snapshot.cols, rows: snapshot.rows }).toEqual({ cols: 40, rows: 10 });
    const restored = await replay(snapshot);
    const text = state(restored).normal.join("\n");
    expect(text).toContain("w".repeat(40));
    expect(text).toContain("after resize");
  });

  it("rejects waiting snapshots when disposed, and refuses reads afterwards", async () => {
    const mirror = new TerminalMirror(80, 24);
    mirror.write("x".repeat(100_000));
    const pending = mirror.snapshot();
    mirror.dispose();
    await expect(pending).rejects.toBeInstanceOf(MirrorDisposedError);
    await expect(mirror.flush()).rejects.toBeInstanceOf(MirrorDisposedError);
    expect(() => mirror.serialize()).toThrow(MirrorDisposedError);
    mirror.write("ignored");
  });
});
