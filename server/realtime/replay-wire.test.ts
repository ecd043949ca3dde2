// A packed replay restores exactly what the string replay does: the page inflates it and hands xterm
// the UTF-8 bytes; compared cell by cell and mode by mode (scrollback included) with a terminal that
// saw the whole stream, on real programs' recorded output and on 10,000 lines of styled, wide text.
import { afterEach, describe, expect, it } from "vitest";
import { TerminalMirror } from "../transports/pty/terminal-mirror.ts";
import { feedMirror, loadRecordings, ReferenceTerminal } from "../transports/pty/fidelity-support.ts";
import { unpackReplay } from "../../common/terminal/replay-unpack.ts";
import { packReplay } from "./replay-wire.ts";

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

async function packedRestore(mirror: TerminalMirror): Promise<{ restored: ReferenceTerminal; chars: number; packedBytes: number }> {
  const snapshot = await mirror.snapshot();
  const packed = await packReplay({ type: "replay", seq: 7, ...snapshot });
  expect(packed).toMatchObject({ type: "packed-replay", seq: 7, cols: snapshot.cols, rows: snapshot.rows, chars: snapshot.data.length });
  const bytes = unpackReplay(new Uint8Array(packed.bytes).slice().buffer); // as the browser gets it: an ArrayBuffer
  expect(Buffer.from(bytes).toString("utf8")).toBe(snapshot.data);
  const restored = new ReferenceTerminal(snapshot.cols, snapshot.rows);
  disposables.push(restored);
  await new Promise<void>((resolve) => restored.terminal.write(bytes, resolve));
  return { restored, chars: snapshot.data.length, packedBytes: packed.bytes.byteLength };
}

describe("packed replays", () => {
  for (const recording of loadRecordings()) {
    it(`restore ${recording.name} exactly`, async () => {
      const mirror = new TerminalMirror(recording.cols, recording.rows);
      const reference = new ReferenceTerminal(recording.cols, recording.rows);
      disposables.push(mirror, reference);
      for (const event of recording.events) {
        feedMirror(mirror, event);
        await reference.apply(event);
      }
      const { restored } = await packedRestore(mirror);
      expect(restored.state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
    });
  }

  it("restore 10,000 lines of styled text with wide characters exactly, in a fraction of the size", async () => {
    const mirror = new TerminalMirror(100, 30);
    const reference = new ReferenceTerminal(100, 30);
    disposables.push(mirror, reference);
    const lines = Array.from(
      { length: 10_030 },
      (_, i) => `\x1b[${31 + (i % 7)}m${i}\x1b[0m ${i % 3 === 0 ? "漢字 🙂 é" : "plain"} \x1b[1;4mline\x1b[0m ${"x".repeat(i % 90)}`,
    );
    const output = `${lines.join("\r\n")}\x1b[?2004h`;
    feedMirror(mirror, { o: output });
    await reference.write(output);
    const { restored, chars, packedBytes } = await packedRestore(mirror);
    expect(restored.state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
    expect(packedBytes).toBeLessThan(chars / 4);
  });
});
