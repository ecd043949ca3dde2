// The parser against socket.io's own: text packets written exactly as socket.io writes them, a packet
// with bytes as one message that decodes to the same packet (in Node and as the browser gets it), bad
// messages refused. Over a real WebSocket: server/realtime/socket-parser.test.ts.
import * as base from "socket.io-parser";
import { describe, expect, it } from "vitest";
import { Decoder, Encoder, FORMAT, packMessage } from "./socket-parser.ts";

const { PacketType } = base;

function decodeAll(messages: unknown[]): base.Packet[] {
  const decoder = new Decoder();
  const out: base.Packet[] = [];
  decoder.on("decoded", (packet: base.Packet) => out.push(packet));
  for (const message of messages) decoder.add(message);
  return out;
}

/** As Node's WebSocket (ws) gives a binary message: a Buffer. */
const asNode = (messages: (string | Uint8Array)[]) => messages.map((m) => (typeof m === "string" ? m : Buffer.from(m)));
/** As the browser gets a binary message: an ArrayBuffer of its own. */
const asArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer;

describe("text packets", () => {
  it.each<[string, base.Packet]>([
    ["an echo", { type: PacketType.EVENT, nsp: "/", data: ["terminal:frame", "s1", { type: "output", seq: 7, data: "a" }] }],
    ["an event with an ack id", { type: PacketType.EVENT, nsp: "/", id: 12, data: ["terminal:attach", { sessionId: "s1", packed: true }] }],
    ["an ack", { type: PacketType.ACK, nsp: "/", id: 12, data: [{ ok: true, escapes: "\u001b[1m" }] }],
    ["a connect", { type: PacketType.CONNECT, nsp: "/", data: { sid: "abc" } }],
    ["a disconnect in a namespace", { type: PacketType.DISCONNECT, nsp: "/admin" }],
    ["a connect error", { type: PacketType.CONNECT_ERROR, nsp: "/", data: { message: "refused" } }],
  ])("%s is written exactly as socket.io writes it, and reads back", (_name, packet) => {
    const ours = new Encoder().encode(packet);
    expect(ours).toEqual(new base.Encoder().encode(packet));
    expect(ours).toHaveLength(1);
    expect(typeof ours[0]).toBe("string");
    expect(decodeAll(ours)).toEqual([packet]);
  });
});

describe("packets with bytes", () => {
  const bytes = Buffer.from("\u001b[31mred 漢字 🙂\u001b[0m".repeat(100), "utf8");
  const packet: base.Packet = {
    type: PacketType.EVENT,
    nsp: "/",
    data: ["terminal:frame", "s1", { type: "output-bytes", seq: 3, chars: 1500, bytes }],
  };

  it("travel as one binary message", () => {
    const messages = new Encoder().encode(packet);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBeInstanceOf(Uint8Array);
    expect((messages[0] as Uint8Array)[0]).toBe(FORMAT);
    // socket.io's own: the header as text, then the bytes as a second message
    expect(new base.Encoder().encode(packet)).toHaveLength(2);
  });

  it("read back as Buffers in Node and as ArrayBuffers in the browser, byte for byte", () => {
    const [message] = new Encoder().encode(packet) as [Uint8Array];
    const [inNode] = decodeAll([Buffer.from(message)]);
    const nodeBytes = (inNode!.data as [string, string, { bytes: Buffer }])[2].bytes;
    expect(Buffer.isBuffer(nodeBytes)).toBe(true);
    expect(inNode).toEqual({ ...packet, type: PacketType.EVENT });

    const [inBrowser] = decodeAll([asArrayBuffer(message)]);
    const frame = (inBrowser!.data as [string, string, { bytes: ArrayBuffer; seq: number; chars: number }])[2];
    expect(frame.bytes).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(frame.bytes).equals(bytes)).toBe(true);
    expect(frame).toMatchObject({ type: "output-bytes", seq: 3, chars: 1500 });
  });

  it("keep several attachments, an ack id and a namespace, empty bytes included", () => {
    const several: base.Packet = {
      type: PacketType.ACK,
      nsp: "/room",
      id: 41,
      data: [{ first: Buffer.from([1, 2, 3]), nested: { second: Buffer.alloc(0), third: Buffer.from("x") } }],
    };
    const messages = new Encoder().encode(several);
    expect(messages).toHaveLength(1);
    expect(decodeAll(asNode(messages))).toEqual([several]);
  });

  it("are also read the way socket.io sends them (header, then each attachment)", () => {
    const theirs = new base.Encoder().encode(packet);
    expect(decodeAll(theirs)).toEqual([packet]);
    // and a packed one right after
    expect(decodeAll([...theirs, ...asNode(new Encoder().encode(packet))])).toEqual([packet, packet]);
  });

  it.each<[string, () => Uint8Array]>([
    ["an unknown format", () => Uint8Array.of(9, 0, 0, 0, 0)],
    ["too short to hold a header", () => Uint8Array.of(FORMAT, 0, 0)],
    ["a header cut short", () => packMessage('51-["e",{"_placeholder":true,"num":0}]', [Buffer.from("abc")]).subarray(0, 12)],
    ["an attachment cut short", () => packMessage('51-["e",{"_placeholder":true,"num":0}]', [Buffer.from("abc")]).subarray(0, -1)],
    [
      "fewer attachments than the header announces",
      () => packMessage('52-["e",{"_placeholder":true,"num":0},{"_placeholder":true,"num":1}]', [Buffer.from("a")]),
    ],
    ["a text packet packed", () => packMessage('2["e","x"]', [])],
  ])("refuse %s", (_name, message) => {
    expect(() => decodeAll([message()])).toThrow();
  });
});
