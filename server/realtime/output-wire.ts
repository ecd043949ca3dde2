// Live output as it travels to a page that asked for it as bytes: the chunk's UTF-8 as one binary
// attachment of the socket.io packet instead of a JSON string. A flood of mixed ANSI is ~1.56x larger
// as JSON (every ESC written `\u001b`), which the server writes to the socket, Chromium's network
// service carries and the page's JSON.parse reads, all on the cores the page's parser needs; as bytes
// it travels at its size and xterm.js parses UTF-8 as it is. A small chunk (an echo, a prompt) stays a
// string: a binary packet is two WebSocket messages, which a keystroke's round trip would pay for.
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { OutputBytesFrame } from "./events.ts";

export const OutputWire = {
  /** Chars from which an output chunk travels as bytes (a flood's chunks are 4-64 K chars). */
  BYTES_FROM_CHARS: 1024,
} as const;

type OutputFrame = Extract<TerminalFrame, { type: "output" }>;

/** The last chunk encoded: every viewer of a session gets the same frame, encoded once for all of them. */
let last: { frame: OutputFrame; wire: OutputBytesFrame } | undefined;

/** The frame as it goes on the wire to a page that takes output as bytes (the bytes are shared: never changed). */
export function outputOnWire(frame: OutputFrame, minChars: number = OutputWire.BYTES_FROM_CHARS): OutputFrame | OutputBytesFrame {
  if (frame.data.length < minChars) return frame;
  if (last?.frame === frame) return last.wire;
  const wire: OutputBytesFrame = { type: "output-bytes", seq: frame.seq, chars: frame.data.length, bytes: Buffer.from(frame.data, "utf8") };
  last = { frame, wire };
  return wire;
}
