// A replay cut into pieces for xterm.js: it parses each write() whole, in one task, so a 10,000-line
// snapshot in one write holds the page's main thread for hundreds of ms; in pieces it yields between
// them (its write buffer's 12 ms slices). The cut may fall inside a UTF-8 sequence or an escape
// sequence: xterm.js's decoder and parser keep their state from one write to the next.

/** Bytes (or chars) a piece: about 15 ms of parsing on this machine's slower runs. */
export const REPLAY_PIECE = 32 * 1024;

export function replayPieces<T extends string | Uint8Array>(data: T, piece: number = REPLAY_PIECE): T[] {
  if (data.length <= piece) return [data];
  const out: T[] = [];
  for (let at = 0; at < data.length; at += piece)
    out.push((typeof data === "string" ? data.slice(at, at + piece) : data.subarray(at, at + piece)) as T);
  return out;
}
