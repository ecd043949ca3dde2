// A replay written in pieces restores exactly what one write does: the cuts fall inside UTF-8
// sequences, surrogate pairs and escape sequences, and xterm.js carries its decoder's and parser's
// state across writes. Compared cell by cell and mode by mode (scrollback included) with a terminal
// that saw the whole stream, on real programs' recorded output and on styled, wide text.
import { afterEach, describe, expect, it } from "vitest";
import { TerminalMirror } from "../../server/transports/pty/terminal-mirror.ts";
import { feedMirror, loadRecordings, ReferenceTerminal } from "../../server/transports/pty/fidelity-support.ts";
import { REPLAY_PIECE, replayPieces } from "./replay-pieces.ts";

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

async function restoreInPieces(mirror: TerminalMirror, piece: number, asBytes: boolean): Promise<ReferenceTerminal> {
  const snapshot = await mirror.snapshot();
  const data = asBytes ? new TextEncoder().encode(snapshot.data) : snapshot.data;
  const pieces = replayPieces(data, piece);
  expect(pieces.length).toBe(Math.max(1, Math.ceil(data.length / piece)));
  const restored = new ReferenceTerminal(snapshot.cols, snapshot.rows);
  disposables.push(restored);
  for (const p of pieces) restored.terminal.write(p);
  await new Promise<void>((resolve) => restored.terminal.write("", resolve));
  return restored;
}

describe("replayPieces", () => {
  it("cuts at the piece size and keeps a short replay whole", () => {
    expect(replayPieces("abcdefg", 3)).toEqual(["abc", "def", "g"]);
    expect(replayPieces(new Uint8Array([1, 2, 3, 4]), 2)).toEqual([new Uint8Array([1, 2]), new Uint8Array([3, 4])]);
    const short = "x".repeat(REPLAY_PIECE);
    expect(replayPieces(short)).toEqual([short]);
  });

  for (const recording of loadRecordings()) {
    it(`restores ${recording.name} exactly in 7-byte and 7-char pieces`, async () => {
      const mirror = new TerminalMirror(recording.cols, recording.rows);
      const reference = new ReferenceTerminal(recording.cols, recording.rows);
      disposables.push(mirror, reference);
      for (const event of recording.events) {
        feedMirror(mirror, event);
        await reference.apply(event);
      }
      for (const asBytes of [true, false])
        expect((await restoreInPieces(mirror, 7, asBytes)).state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
    });
  }

  it("restores 3,000 lines of styled text with wide characters and emoji exactly, cut every 5 and every 4,096", async () => {
    const mirror = new TerminalMirror(100, 30);
    const reference = new ReferenceTerminal(100, 30);
    disposables.push(mirror, reference);
    const lines = Array.from(
      { length: 3_000 },
      (_, i) => `\x1b[${31 + (i % 7)}m${i}\x1b[0m ${i % 3 === 0 ? "漢字 🙂 é" : "plain"} \x1b[1;4mline\x1b[0m ${"x".repeat(i % 90)}`,
    );
    const output = `${lines.join("\r\n")}\x1b[?2004h\x1b[?1h`;
    feedMirror(mirror, { o: output });
    await reference.write(output);
    for (const piece of [5, 4096])
      for (const asBytes of [true, false])
        expect((await restoreInPieces(mirror, piece, asBytes)).state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
  });
});
