// The terminal lane's wire format: one plain WebSocket per open terminal, beside the page's socket.io
// connection, carrying only what a keystroke's echo and a flood pass through (output out; keys and
// acknowledgements in), with no packet objects, event names or acks around a one-byte payload.
// Attaching, resizing and everything else stay on socket.io's typed events (server/realtime/events.ts).
// Pure and browser-safe. The server's side of the encoding is server/realtime/lane-frames.ts.
import type { TerminalFrameView } from "../../server/realtime/events.ts";

export const LANE_PATH = "/terminal-lane";
/** One acknowledgement at most: the socket's bound (payloads.ts's AckSchema). */
export const LANE_ACK_MAX_CHARS = 100_000_000;
/** One input message at most: the same bound as the socket's (payloads.ts's INPUT_MAX_CHARS, checked by a test). */
export const LANE_INPUT_MAX_CHARS = 64 * 1024;

/**
 * A binary message from the server starts with its kind. OUTPUT: the chunk's number (float64), its
 * length in chars (uint32: what the page acks), then its UTF-8. FRAME_WITH_BYTES: the frame's JSON
 * header's length (uint32), the header, then its bytes (a packed replay). Any other frame is JSON text.
 */
export const LaneKind = { OUTPUT: 1, FRAME_WITH_BYTES: 2 } as const;
export const OUTPUT_HEADER_BYTES = 1 + 8 + 4;
const { OUTPUT, FRAME_WITH_BYTES } = LaneKind;

/** Why the server closed a lane, where the page must not attach again because of it. */
export const LaneClose = {
  /** The page's socket.io connection left: its reconnect attaches again. */
  SOCKET_LEFT: 4000,
  /** The page opened a newer lane for the same terminal. */
  REPLACED: 4001,
} as const;

/** From the page: the first character of a text message. */
export const LaneInput = { TEXT: "i", BINARY: "b", ACK: "a" } as const;

const decoder = new TextDecoder();

/** The lane's address for one session's terminal, paired with this page's socket.io connection. */
export function laneUrl(origin: string, socketId: string, sessionId: string): string {
  const url = new URL(LANE_PATH, origin);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("socket", socketId);
  url.searchParams.set("session", sessionId);
  return url.toString();
}

/**
 * What the page reads from a lane message. Output comes back as `output-bytes` (its bytes a view
 * into the message, not a copy); null for a message this page does not understand.
 */
export function decodeLaneFrame(message: string | ArrayBuffer): TerminalFrameView | null {
  if (typeof message === "string") {
    try {
      const frame = JSON.parse(message) as TerminalFrameView;
      return frame && typeof frame === "object" && typeof frame.type === "string" ? frame : null;
    } catch {
      return null;
    }
  }
  const bytes = new Uint8Array(message);
  const view = new DataView(message);
  if (bytes[0] === OUTPUT && bytes.length >= OUTPUT_HEADER_BYTES) {
    return { type: "output-bytes", seq: view.getFloat64(1), chars: view.getUint32(9), bytes: bytes.subarray(OUTPUT_HEADER_BYTES) };
  }
  if (bytes[0] === FRAME_WITH_BYTES && bytes.length >= 5) {
    const jsonLength = view.getUint32(1);
    if (5 + jsonLength > bytes.length) return null;
    try {
      const header = JSON.parse(decoder.decode(bytes.subarray(5, 5 + jsonLength))) as Omit<TerminalFrameView, "bytes">;
      return { ...header, bytes: bytes.slice(5 + jsonLength).buffer } as TerminalFrameView;
    } catch {
      return null;
    }
  }
  return null;
}

/** A message from the page: keys (as text, or one byte a char), or the chars its xterm has parsed. */
export type LaneMessage = { kind: "input"; data: string; binary: boolean } | { kind: "ack"; chars: number };

export function encodeLaneMessage(message: LaneMessage): string {
  if (message.kind === "ack") return LaneInput.ACK + String(message.chars);
  return (message.binary ? LaneInput.BINARY : LaneInput.TEXT) + message.data;
}

/**
 * The lane's schema: null for anything else, for empty input and for more than the socket's input
 * schema takes (INPUT_MAX_CHARS, server/realtime/payloads.ts).
 */
export function decodeLaneMessage(text: string): LaneMessage | null {
  const kind = text[0];
  const body = text.slice(1);
  if (kind === LaneInput.TEXT || kind === LaneInput.BINARY) {
    if (body.length === 0 || body.length > LANE_INPUT_MAX_CHARS) return null;
    return { kind: "input", data: body, binary: kind === LaneInput.BINARY };
  }
  if (kind === LaneInput.ACK && /^\d{1,9}$/.test(body) && Number(body) <= LANE_ACK_MAX_CHARS) return { kind: "ack", chars: Number(body) };
  return null;
}
