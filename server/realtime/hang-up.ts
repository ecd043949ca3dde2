// A clean stop says goodbye before it closes. Each page's socket is told it is disconnected, and the
// page closes its WebSocket itself. Closing them from here at once would land the close right behind
// the last pushes (a session's end), and a page still reacting to those (its live card unwatching as
// it goes) would write to a closing WebSocket, which the browser reports as a console error.

/** How long a clean stop waits for pages to hang up before it closes what is left (ms). */
export const HANG_UP_WAIT_MS = 1_000;
/** How often it looks whether they have. */
const HANG_UP_POLL_MS = 20;

/** What of socket.io's server this needs (its types are generic in the event maps). */
export interface Hangable {
  disconnectSockets(close?: boolean): void;
  readonly engine: { readonly clientsCount: number; close(): unknown };
}

/** Tells every socket it is disconnected, waits (bounded) for the pages to close, then closes the rest. */
export async function hangUp(io: Hangable, waitMs: number = HANG_UP_WAIT_MS): Promise<void> {
  io.disconnectSockets(false);
  const deadline = Date.now() + waitMs;
  while (io.engine.clientsCount > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, HANG_UP_POLL_MS));
  }
  io.engine.close();
}
