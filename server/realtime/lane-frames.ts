// A terminal frame as one message on the terminal lane (common/terminal/lane-codec.ts has the format
// and the page's decoder): output as its UTF-8 behind a 13-byte header, written straight into the
// message (one copy of the text); a packed replay as its JSON header then its bytes; the rest as JSON.
import { LaneKind, OUTPUT_HEADER_BYTES } from "../../common/terminal/lane-codec.ts";
import type { OutboxFrame } from "./terminal-outbox.ts";

/** What a lane carries: an outbox's frames (output as the session's string). */
export type LaneFrame = OutboxFrame;

/** The last output chunk encoded: every lane of a session gets the same message, encoded once for all. */
let last: { frame: LaneFrame; message: Buffer } | undefined;

export function encodeLaneFrame(frame: LaneFrame): string | Buffer {
  if (frame.type === "output") {
    if (last?.frame === frame) return last.message;
    const length = Buffer.byteLength(frame.data, "utf8");
    const message = Buffer.allocUnsafe(OUTPUT_HEADER_BYTES + length);
    message[0] = LaneKind.OUTPUT;
    message.writeDoubleBE(frame.seq, 1);
    message.writeUInt32BE(frame.data.length, 9);
    message.write(frame.data, OUTPUT_HEADER_BYTES, "utf8");
    last = { frame, message };
    return message;
  }
  if (frame.type === "packed-replay") {
    const { bytes, ...header } = frame;
    const json = Buffer.from(JSON.stringify(header), "utf8");
    const prefix = Buffer.allocUnsafe(5);
    prefix[0] = LaneKind.FRAME_WITH_BYTES;
    prefix.writeUInt32BE(json.length, 1);
    return Buffer.concat([prefix, json, bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes]);
  }
  return JSON.stringify(frame);
}
