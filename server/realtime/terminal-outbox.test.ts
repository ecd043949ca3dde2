// The outbox sends a page's frames in the order the session produced them: nothing before its attach
// is acknowledged, a packed replay before what followed it, nothing after it is closed.
import { describe, expect, it } from "vitest";
import type { TerminalFrameView } from "./events.ts";
import { TerminalOutbox } from "./terminal-outbox.ts";
import { packReplay } from "./replay-wire.ts";

/** An outbox whose packing ends when the test says (`packed()`), with the real packer's result. */
function outbox(packReplays: boolean) {
  const sent: TerminalFrameView[] = [];
  let finish: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  let packing: Promise<unknown> = Promise.resolve();
  const box = new TerminalOutbox((frame) => sent.push(frame), {
    packReplays,
    log: () => undefined,
    pack: (frame) => {
      const done = packReplay(frame).then(async (result) => {
        await gate;
        return result;
      });
      packing = done;
      return done;
    },
  });
  /** Lets packing finish and waits until the outbox has done what it does with the result. */
  const packed = async () => {
    finish();
    await packing;
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { box, sent, packed };
}

const replay = { type: "replay" as const, seq: 2, data: "screen\r\n漢", cols: 80, rows: 24 };
const output = (seq: number) => ({ type: "output" as const, seq, data: `out ${seq}` });

describe("terminal outbox", () => {
  it("holds frames until the attach is acknowledged, then sends them in order and the rest at once", () => {
    const { box, sent } = outbox(false);
    box.push(replay);
    box.push(output(3));
    expect(sent).toEqual([]);
    box.release();
    expect(sent).toEqual([replay, output(3)]);
    box.push(output(4));
    expect(sent).toEqual([replay, output(3), output(4)]);
  });

  it("sends a packed replay before the output that came while it was being packed", async () => {
    const { box, sent, packed } = outbox(true);
    box.release();
    box.push(replay);
    box.push(output(3));
    box.push({ type: "resize", seq: 3, cols: 90, rows: 30 });
    expect(sent).toEqual([]);
    await packed();
    expect(sent.map((f) => f.type)).toEqual(["packed-replay", "output", "resize"]);
    expect(sent[0]).toMatchObject({ type: "packed-replay", seq: 2, cols: 80, rows: 24, chars: replay.data.length });
    box.push(output(4));
    expect(sent.at(-1)).toEqual(output(4));
  });

  it("sends nothing once closed, not even a replay still being packed", async () => {
    const { box, sent, packed } = outbox(true);
    box.push(replay);
    box.release();
    box.close();
    box.push(output(3));
    await packed();
    expect(sent).toEqual([]);
  });
});
