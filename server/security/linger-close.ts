// Closing a connection whose client is still sending (a refused upload). Closing it at once makes the
// kernel answer the unread bytes with a reset, and a reset can make the client's kernel discard the
// refusal before the client has read it: the learner's program then sees "connection reset" instead of
// the sentence saying why. So the answer is followed by a half-close, a little more of the upload is
// read and dropped (bounded), and only then is the socket destroyed: the lingering close web servers do.
import type { Socket } from "node:net";

export const LingerLimits = {
  /** Bytes of the refused upload read and dropped after the answer, at most. */
  BYTES: 1024 * 1024,
  /** How long the socket is kept after the answer, at most. */
  MS: 1_000,
} as const;

/**
 * Makes the server's own close of this socket (Node ends a `Connection: close` response with
 * `destroySoon`) a lingering one.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const until = socket.bytesRead + LingerLimits.BYTES;
    const stop = () => {
      clearTimeout(timer);
      socket.off("data", check);
      socket.destroy();
    };
    const check = () => {
      if (socket.bytesRead > until) stop();
    };
    const timer = setTimeout(stop, LingerLimits.MS);
    timer.unref();
    socket.on("data", check);
    socket.once("close", () => clearTimeout(timer));
  };
}
