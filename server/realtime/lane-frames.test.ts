// The terminal lane's format, both ends: what the server encodes (lane-frames.ts) the page decodes
// (common/terminal/lane-codec.ts) to the frame it was, and the page's keys and acks read back as sent.
import { describe, expect, it } from "vitest";
import { decodeLaneFrame, decodeLaneMessage, encodeLaneMessage, LANE_INPUT_MAX_CHARS, laneUrl } from "../../common/terminal/lane-codec.ts";
import { INPUT_MAX_CHARS } from "./payloads.ts";
import { encodeLaneFrame, type LaneFrame } from "./lane-frames.ts";

/** What the page's WebSocket hands over: text as a string, a binary message as its own ArrayBuffer. */
function overTheWire(message: string | Buffer): string | ArrayBuffer {
  if (typeof message === "string") return message;
  return message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength) as ArrayBuffer;
}

const roundTrip = (frame: LaneFrame) => decodeLaneFrame(overTheWire(encodeLaneFrame(frame)));
const text = (bytes: Uint8Array | ArrayBuffer) => new TextDecoder().decode(bytes);

describe("terminal lane frames", () => {
  it.each([
    ["an echo", "a", 1],
    ["multi-byte text and escapes", "\u001b[1;31mnaïve 日本語 🎉\u001b[0m\r\n", 2 ** 31 + 5],
    ["a flood's chunk", "x\u001b[K".repeat(20_000), 123_456],
  ])("output (%s) arrives as its UTF-8, its number and its length in chars", (_name, data, seq) => {
    const frame = roundTrip({ type: "output", seq, data });
    expect(frame).toMatchObject({ type: "output-bytes", seq, chars: data.length });
    expect(text((frame as { bytes: Uint8Array }).bytes)).toBe(data);
  });

  it("a packed replay keeps its header and its bytes", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 7]);
    const frame = roundTrip({ type: "packed-replay", seq: 4, chars: 77, cols: 120, rows: 40, sizedFor: "phone", bytes });
    expect(frame).toMatchObject({ type: "packed-replay", seq: 4, chars: 77, cols: 120, rows: 40, sizedFor: "phone" });
    expect([...new Uint8Array((frame as { bytes: ArrayBuffer }).bytes)]).toEqual([...bytes]);
  });

  it.each<LaneFrame>([
    { type: "resize", seq: 3, cols: 80, rows: 24, sizedFor: "laptop" },
    { type: "detached", seq: 12 },
    { type: "replay", seq: 0, data: "\u001b[2J$ ", cols: 100, rows: 30 },
  ])("a $type frame is its JSON", (frame) => {
    expect(roundTrip(frame)).toEqual(frame);
  });

  it("one output frame is encoded once for every lane it goes to", () => {
    const frame: LaneFrame = { type: "output", seq: 1, data: "shared" };
    expect(encodeLaneFrame(frame)).toBe(encodeLaneFrame(frame));
    expect(encodeLaneFrame({ ...frame })).not.toBe(encodeLaneFrame(frame));
  });

  it.each([
    ["not JSON", "{nope"],
    ["JSON that is no frame", "42"],
    ["an unknown kind", new Uint8Array([9, 0, 0]).buffer],
    ["a cut output header", new Uint8Array([1, 0, 0, 0]).buffer],
    ["a header longer than its message", new Uint8Array([2, 0, 0, 1, 0, 123]).buffer],
    ["an empty message", new ArrayBuffer(0)],
  ])("a message the page cannot read (%s) is skipped", (_name, message) => {
    expect(decodeLaneFrame(message as string | ArrayBuffer)).toBeNull();
  });
});

describe("terminal lane messages from the page", () => {
  it.each([
    { kind: "input" as const, data: "ls -la\r", binary: false },
    { kind: "input" as const, data: "\u001b[M !!", binary: true },
    { kind: "input" as const, data: "a", binary: false },
    { kind: "ack" as const, chars: 0 },
    { kind: "ack" as const, chars: 131_072 },
  ])("%o reads back as sent", (message) => {
    expect(decodeLaneMessage(encodeLaneMessage(message))).toEqual(message);
  });

  it.each(["", "x", "a", "a-1", "a1.5", "a9999999999", "aabc", "a100000001", "i", "b"])("%j is no message", (raw) => {
    expect(decodeLaneMessage(raw)).toBeNull();
  });

  it("takes input up to the socket's bound and no more", () => {
    expect(LANE_INPUT_MAX_CHARS).toBe(INPUT_MAX_CHARS);
    expect(decodeLaneMessage("i" + "x".repeat(INPUT_MAX_CHARS))).toMatchObject({ kind: "input" });
    expect(decodeLaneMessage("i" + "x".repeat(INPUT_MAX_CHARS + 1))).toBeNull();
  });

  it("the lane's address is the page's origin, as ws: or wss:", () => {
    expect(laneUrl("http://127.0.0.1:3000", "abc", "s1")).toBe("ws://127.0.0.1:3000/terminal-lane?socket=abc&session=s1");
    expect(laneUrl("https://laptop.local:8443", "a b", "s")).toBe("wss://laptop.local:8443/terminal-lane?socket=a+b&session=s");
  });
});
