// The page's half of a packed replay (server/realtime/replay-wire.ts): raw deflate back to the
// snapshot's UTF-8 bytes, which xterm.js parses as they are. Synchronous (a few ms for 10,000 lines),
// so the replay is written before any output frame that arrived after it.
import { inflateSync } from "fflate";

export function unpackReplay(bytes: Uint8Array | ArrayBuffer): Uint8Array {
  return inflateSync(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}
