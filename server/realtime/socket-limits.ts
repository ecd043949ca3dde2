// The socket budget (socket-budget.ts) applied to socket.io: a handshake past the connection limits
// is refused with its sentence before any other check, a slot is given back when its connection
// closes, and a socket that sends events faster than its budget is disconnected. Refusals are
// logged as one line per interval, so a storm cannot fill the log either.
import type { IncomingMessage } from "node:http";
import type { Server, Socket } from "socket.io";
import { EventBudget, SocketSlots } from "./socket-budget.ts";

type AllowRequest = (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void) => void;

/** Refusals are summed up in the log at most this often, ms. */
const REFUSALS_LOGGED_EVERY_MS = 10_000;

export interface SocketLimitsHandle {
  /** socket.io's allowRequest: the limits first, then `inner` (the device and Origin checks). */
  readonly allowRequest: AllowRequest;
  /** Gives each accepted connection's slot back when it closes. */
  watch(io: Server<never, never, never, unknown>): void;
  /** Disconnects this socket once it sends events faster than its budget. */
  budgetEvents(socket: Socket<never, never, never, unknown>): void;
}

export function socketLimits(
  log: (line: string) => void,
  inner?: AllowRequest,
  slots: SocketSlots = new SocketSlots(),
): SocketLimitsHandle {
  const addressOf = new WeakMap<IncomingMessage, string>();
  let refused = 0;
  let lastReason = "";
  let summary: NodeJS.Timeout | undefined;
  const noteRefusal = (reason: string) => {
    refused++;
    lastReason = reason;
    summary ??= setTimeout(() => {
      log(
        `Refused ${refused} socket connection${refused === 1 ? "" : "s"} in the last ${REFUSALS_LOGGED_EVERY_MS / 1000} s: ${lastReason}`,
      );
      refused = 0;
      summary = undefined;
    }, REFUSALS_LOGGED_EVERY_MS);
    summary.unref();
  };

  const allowRequest: AllowRequest = (req, callback) => {
    const address = req.socket.remoteAddress ?? "unknown";
    const refusal = slots.admit(address);
    if (refusal) {
      noteRefusal(refusal);
      return callback(refusal, false);
    }
    addressOf.set(req, address);
    const settle = (err: string | null | undefined, ok: boolean) => {
      if (!ok) {
        addressOf.delete(req);
        slots.release(address);
      }
      callback(err, ok);
    };
    if (inner) inner(req, settle);
    else settle(null, true);
  };

  return {
    allowRequest,
    watch(io) {
      // engine.io creates the connection in the same tick as allowRequest's success.
      io.engine.on("connection", (conn: { request: IncomingMessage; once(event: "close", cb: () => void): void }) => {
        const address = addressOf.get(conn.request);
        if (address === undefined) return;
        conn.once("close", () => {
          if (addressOf.delete(conn.request)) slots.release(address);
        });
      });
    },
    budgetEvents(socket) {
      const budget = new EventBudget();
      let over = false;
      socket.use((_packet, next) => {
        if (over) return; // dropped: the socket is on its way out
        if (budget.take()) return next();
        over = true;
        log(
          `Disconnected a socket from ${socket.handshake.address}: it sent events faster than a page does (a script, or a page gone wrong).`,
        );
        socket.disconnect(true);
      });
    },
  };
}
