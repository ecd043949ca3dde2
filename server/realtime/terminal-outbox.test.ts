// The outbox sends a page's frames in the order the session produced them: nothing before its attach
// is acknowledged, a packed replay before what followed it, nothing after it is closed.
import { describe, expect, it } from "vitest";
import type { TerminalFrameView } from "./events.ts";
import { TerminalOutbox } from "./terminal-outbox.ts";

function outbox(packReplays: boolean) {
  const sent: TerminalFrameView[] = [];
  const box = new TerminalOutbox((frame) => sent.push(frame), { packReplays, log: () => undefined });
  return { box, sent };
}

const replay = { type: "replay" as const, seq: 2, data: "screen\r\n漢", cols: 80, rows: 24 };
const output = (seq: number) => ({ type: "output" as const, seq, data: `out ${seq}` });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

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
    const { box, sent } = outbox(true);
    box.release();
    box.push(replay);
    box.push(output(3));
    box.push({ type: "resize", seq: 3, cols: 90, rows: 30 });
    expect(sent).toEqual([]);
    await settle();
    expect(sent.map((f) => f.type)).toEqual(["packed-replay", "output", "resize"]);
    expect(sent[0]).toMatchObject({ type: "packed-replay", seq: 2, cols: 80, rows: 24, chars: replay.data.length });
    box.push(output(4));
    expect(sent.at(-1)).toEqual(output(4));
  });

  it("sends nothing once closed, not even a replay still being packed", async () => {
    const { box, sent } = outbox(true);
    box.push(replay);
    box.release();
    box.close();
    box.push(output(3));
    await settle();
    expect(sent).toEqual([]);
  });
});
