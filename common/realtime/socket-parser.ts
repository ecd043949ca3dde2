// socket.io's parser with one change: a packet that carries bytes (a live output chunk, a packed
// replay) travels as ONE binary WebSocket message instead of socket.io's two or more (a text header,
// then each attachment as its own message). Every output frame of a flood paid for the second message
// on both ends: a second WebSocket frame to write, carry and dispatch, and a second decoder call.
// Packets without bytes (an echo, a prompt, every study-loop event) stay exactly as socket.io writes
// them: the same text, the same JSON, no new cost on a keystroke's round trip.
//
// A packed message: byte 0 = FORMAT, then the header (socket.io's own text for the packet, its bytes
// replaced by placeholders) and each attachment in turn, each as a 32-bit big-endian length and its
// bytes. Both ends use this parser (the `parser` option of socket.io's Server and of `io()`); its
// decoder also takes socket.io's own form (header, then each attachment), so a client with it can
// read a server without it.
// Browser-safe: socket.io-parser, TextEncoder and DataView only.
import { Decoder as BaseDecoder, Encoder as BaseEncoder, type Packet, PacketType } from "socket.io-parser";

/** The packed message's first byte: a binary message that does not start with it is refused. */
export const FORMAT = 1;

const utf8 = new TextEncoder();
const text = new TextDecoder();

type Bytes = ArrayBuffer | ArrayBufferView;

function asView(bytes: Bytes): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** socket.io's header and attachments (its encoding of a binary packet) as one message. */
export function packMessage(header: string, attachments: readonly Bytes[]): Uint8Array {
  const head = utf8.encode(header);
  const parts = attachments.map(asView);
  let size = 1 + 4 + head.byteLength;
  for (const part of parts) size += 4 + part.byteLength;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = FORMAT;
  view.setUint32(1, head.byteLength);
  out.set(head, 5);
  let at = 5 + head.byteLength;
  for (const part of parts) {
    view.setUint32(at, part.byteLength);
    out.set(part, at + 4);
    at += 4 + part.byteLength;
  }
  return out;
}

/**
 * A packed message back into socket.io's header and attachments. Each attachment is the type the
 * message came as: a Buffer's slice (no copy) in Node, an ArrayBuffer (copied) in the browser, where
 * socket.io gives attachments as ArrayBuffers.
 */
export function unpackMessage(message: Bytes): { header: string; attachments: (ArrayBuffer | Uint8Array)[] } {
  const bytes = asView(message);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(`Not a packed socket.io message: ${why}.`);
  };
  if (bytes.byteLength < 5 || bytes[0] !== FORMAT) fail("unknown format");
  const slice = (from: number, to: number) => (message instanceof ArrayBuffer ? message.slice(from, to) : bytes.subarray(from, to));
  const headLength = view.getUint32(1);
  if (5 + headLength > bytes.byteLength) fail("header cut short");
  const header = text.decode(bytes.subarray(5, 5 + headLength));
  const attachments: (ArrayBuffer | Uint8Array)[] = [];
  let at = 5 + headLength;
  while (at < bytes.byteLength) {
    if (at + 4 > bytes.byteLength) fail("attachment length cut short");
    const length = view.getUint32(at);
    if (at + 4 + length > bytes.byteLength) fail("attachment cut short");
    attachments.push(slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return { header, attachments };
}

/** The attachment count a binary packet's header announces ("51-[...]": type 5, one attachment). */
function announcedAttachments(header: string): number | undefined {
  const type = Number(header.charAt(0));
  if (type !== PacketType.BINARY_EVENT && type !== PacketType.BINARY_ACK) return undefined;
  const dash = header.indexOf("-");
  const count = dash > 1 ? Number(header.slice(1, dash)) : NaN;
  return Number.isInteger(count) ? count : undefined;
}

export class Encoder extends BaseEncoder {
  override encode(packet: Packet): (string | Uint8Array)[] {
    const parts = super.encode(packet) as [string, ...Bytes[]];
    if (parts.length === 1) return parts as [string];
    const [header, ...attachments] = parts;
    return [packMessage(header, attachments)];
  }
}

export class Decoder extends BaseDecoder {
  /** Attachments still to come of a packet sent socket.io's own way (header, then one message each). */
  private awaiting = 0;

  override add(message: unknown): void {
    if (typeof message === "string") {
      this.awaiting = announcedAttachments(message) ?? 0;
      return super.add(message);
    }
    if (this.awaiting > 0) {
      this.awaiting--;
      return super.add(message);
    }
    if (!(message instanceof ArrayBuffer) && !ArrayBuffer.isView(message)) throw new Error("Not a socket.io message.");
    const { header, attachments } = unpackMessage(message);
    // socket.io's decoder waits for as many binary messages as the header announces: exactly that many
    // travel in a packed message, so the packet is complete when the last is added.
    if (announcedAttachments(header) !== attachments.length) {
      throw new Error("Not a packed socket.io message: the header does not announce its attachments.");
    }
    super.add(header);
    for (const attachment of attachments) super.add(attachment);
  }

  override destroy(): void {
    this.awaiting = 0;
    super.destroy();
  }
}

/** The `parser` option for socket.io's Server and for `io()`. */
export const socketParser = { Encoder, Decoder };
