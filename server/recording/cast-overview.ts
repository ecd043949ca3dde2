// A recording's duration and markers without parsing it whole. The session page shows them for every
// ended session, and a flood's recording is tens of MB: parsing each of its lines as JSON held the
// server's one thread (every live terminal with it) for a long while. Here the file is read in pieces,
// a turn of the event loop between them; only marker lines and the last lines are parsed. Same answer
// as parseCast + castDuration/castMarkers (asciicast.ts), tested against them.
import fs from "node:fs";
import { parseEventLine, parseHeaderLine } from "./asciicast.ts";

export interface CastOverview {
  /** Seconds the recording runs: its last whole event's time. */
  readonly duration: number;
  readonly markers: readonly { readonly time: number; readonly label: string }[];
  readonly bytes: number;
}

export const CastOverviewLimits = {
  /** Bytes read at a time. */
  PIECE_BYTES: 1 << 20,
  /** Ended recordings' overviews kept, by file (a recording does not change once it has ended). */
  CACHED: 64,
} as const;

/**
 * A marker's line as the recorder writes it: `[time,"m",label]`. Quotes inside a JSON string are
 * escaped, so `,"m",` unescaped is only ever the code between an event's time and its data.
 */
const MARKER_CODE = Buffer.from(',"m",');
const NEWLINE = 0x0a;

const cache = new Map<string, { size: number; mtimeMs: number; overview: CastOverview | null }>();

/** null when the file has no asciicast v2 header (as parseCast). Cached while the file is unchanged. */
export async function readCastOverview(file: string): Promise<CastOverview | null> {
  const handle = await fs.promises.open(file, "r");
  try {
    const { size, mtimeMs } = await handle.stat();
    const cached = cache.get(file);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return cached.overview;
    const overview = await scan(handle, size, CastOverviewLimits.PIECE_BYTES);
    cache.delete(file);
    cache.set(file, { size, mtimeMs, overview });
    if (cache.size > CastOverviewLimits.CACHED) cache.delete(cache.keys().next().value!);
    return overview;
  } finally {
    await handle.close();
  }
}

/** The same, uncached, reading `pieceBytes` at a time (tests: small pieces, lines across them). */
export async function scanCastOverview(file: string, pieceBytes: number): Promise<CastOverview | null> {
  const handle = await fs.promises.open(file, "r");
  try {
    return await scan(handle, (await handle.stat()).size, pieceBytes);
  } finally {
    await handle.close();
  }
}

async function scan(handle: fs.promises.FileHandle, size: number, pieceBytes: number): Promise<CastOverview | null> {
  const markers: { time: number; label: string }[] = [];
  let duration = 0;
  let headerSeen = false;
  /** The bytes after the last newline read so far: the start of a line the next piece finishes. */
  let carry = Buffer.alloc(0);
  for (let offset = 0; offset < size;) {
    const piece = Buffer.allocUnsafe(Math.min(pieceBytes, size - offset));
    const { bytesRead } = await handle.read(piece, 0, piece.length, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
    const bytes = carry.length > 0 ? Buffer.concat([carry, piece.subarray(0, bytesRead)]) : piece.subarray(0, bytesRead);
    const end = bytes.lastIndexOf(NEWLINE) + 1; // whole lines only; a torn last line is dropped
    carry = Buffer.from(bytes.subarray(end));
    if (end === 0) continue;
    let from = 0;
    if (!headerSeen) {
      const newline = bytes.indexOf(NEWLINE);
      if (!parseHeaderLine(bytes.toString("utf8", 0, newline))) return null;
      headerSeen = true;
      from = newline + 1;
    }
    for (let at = bytes.indexOf(MARKER_CODE, from); at !== -1 && at < end; at = bytes.indexOf(MARKER_CODE, at + 1)) {
      const start = bytes.lastIndexOf(NEWLINE, at) + 1;
      const stop = bytes.indexOf(NEWLINE, at);
      const event = parseEventLine(bytes.toString("utf8", Math.max(start, from), stop));
      if (event?.code === "m") markers.push({ time: event.time, label: event.data });
    }
    duration = lastTime(bytes, from, end) ?? duration;
  }
  return headerSeen ? { duration, markers, bytes: size } : null;
}

/** The time of the last whole, valid event among the lines in bytes[from, end). */
function lastTime(bytes: Buffer, from: number, end: number): number | undefined {
  for (let stop = end - 1; stop > from;) {
    const start = Math.max(from, bytes.lastIndexOf(NEWLINE, stop - 1) + 1);
    const event = parseEventLine(bytes.toString("utf8", start, stop));
    if (event) return event.time;
    stop = start - 1;
  }
  return undefined;
}
