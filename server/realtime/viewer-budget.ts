// What the server holds for any one viewer, bounded. Flow control (transports/pty/flow-control.ts)
// trusts a viewer's acks; a viewer that acknowledges output it never read, and stops reading, would
// make socket.io queue everything the agent prints (measured: RSS 288 -> 687 MB in a 300 MB flood,
// until the ping timeout). So before each terminal frame, the bytes queued for that socket and not yet
// handed to the kernel are counted (engine.io's write buffer plus the WebSocket's own buffer); past
// the bound the viewer is dropped: its buffers are freed, its page reconnects on its own and
// re-attaches, getting the missed chunks or one fresh snapshot, as after any network drop.
import type { Socket } from "socket.io";

export const ViewerBudget = {
  /**
   * Bytes queued for one socket and not yet sent, above which it is dropped. An honest viewer holds
   * at most one snapshot plus flow control's lag limit (1,000,000 chars, a few MB as JSON) before it
   * is stalled and sent nothing more, so this is reached only by a viewer whose acks lie (or a link
   * too slow to carry one snapshot, which then reconnects and is sent a fresh one).
   */
  MAX_UNSENT_BYTES: 16 * 1024 * 1024,
} as const;

/** Pure: whether a socket holding `unsentBytes` must be dropped before anything more is queued for it. */
export function overBudget(unsentBytes: number, maxUnsentBytes: number = ViewerBudget.MAX_UNSENT_BYTES): boolean {
  return unsentBytes > maxUnsentBytes;
}

interface EnginePacket {
  readonly data?: unknown;
}

/** The parts of engine.io's socket this reads (not in socket.io's public types). */
interface EngineSocket {
  readonly writeBuffer: EnginePacket[];
  readonly transport: { readonly name: string; readonly socket?: { readonly bufferedAmount?: number; terminate?: () => void } };
  on(event: "packetCreate", fn: (packet: EnginePacket) => void): void;
  on(event: "flush", fn: (packets: EnginePacket[]) => void): void;
  close(discard?: boolean): void;
}

/** Bytes in engine.io's write buffer, kept as a running count (packets in, flushes out): O(1) per send. */
const queued = new WeakMap<EngineSocket, { bytes: number }>();

function packetBytes(packet: EnginePacket): number {
  const data = packet.data;
  if (typeof data === "string") return data.length;
  if (data instanceof Uint8Array) return data.byteLength;
  return 0;
}

function queuedCounter(conn: EngineSocket): { bytes: number } {
  let counter = queued.get(conn);
  if (!counter) {
    const fresh = { bytes: conn.writeBuffer.reduce((sum, p) => sum + packetBytes(p), 0) };
    conn.on("packetCreate", (packet) => (fresh.bytes += packetBytes(packet)));
    conn.on("flush", (packets) => (fresh.bytes = Math.max(0, fresh.bytes - packets.reduce((sum, p) => sum + packetBytes(p), 0))));
    queued.set(conn, fresh);
    counter = fresh;
  }
  return counter;
}

/** Bytes queued for this socket and not yet handed to the kernel. */
export function unsentBytes(socket: Socket): number {
  const conn = socket.conn as unknown as EngineSocket;
  const buffered = conn.transport.name === "websocket" ? (conn.transport.socket?.bufferedAmount ?? 0) : 0;
  return queuedCounter(conn).bytes + buffered;
}

/**
 * Runs `send` for this socket, or, past the budget, drops the socket instead (once) and returns false.
 * The one hook in the terminal's send path (server/realtime/socket-server.ts).
 */
export function sendWithinBudget(
  socket: Socket,
  send: () => void,
  log: (line: string) => void,
  maxUnsentBytes: number = ViewerBudget.MAX_UNSENT_BYTES,
): boolean {
  if (!socket.connected) return false;
  const unsent = unsentBytes(socket);
  if (!overBudget(unsent, maxUnsentBytes)) {
    send();
    return true;
  }
  log(
    `Dropped viewer ${socket.id}: ${Math.round(unsent / 1024 / 1024)} MB of output queued for it was not being read (it resyncs when it reconnects).`,
  );
  const conn = socket.conn as unknown as EngineSocket;
  const ws = conn.transport.socket;
  // Discard what is queued, and cut the connection now rather than after a closing handshake that
  // would wait behind the unread bytes: the page sees a dropped connection and reconnects.
  conn.close(true);
  ws?.terminate?.();
  return false;
}
