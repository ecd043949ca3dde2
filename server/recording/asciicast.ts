// The asciicast v2 format (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then
// one JSON array per line, [seconds, code, data]. Pure: encodes what the recorder writes and reads
// back what a recording holds, including one cut short by a crash (a torn last line is dropped).

export interface CastHeader {
  readonly version: 2;
  readonly width: number;
  readonly height: number;
  /** Unix time of the start, in seconds. */
  readonly timestamp: number;
  readonly title?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** "o": output, "r": resize ("COLSxROWS"), "m": marker (a label). Input ("i") is never recorded. */
export type CastCode = "o" | "r" | "m";

export interface CastEvent {
  /** Seconds since the start. */
  readonly time: number;
  readonly code: CastCode;
  readonly data: string;
}

export interface Cast {
  readonly header: CastHeader;
  readonly events: CastEvent[];
}

/** Seconds with millisecond precision: enough for replay, and keeps every line short. */
export function castTime(ms: number): number {
  return Math.round(Math.max(0, ms)) / 1000;
}

export function encodeHeader(header: CastHeader): string {
  return `${JSON.stringify(header)}\n`;
}

export function encodeEvent(event: CastEvent): string {
  return `${JSON.stringify([event.time, event.code, event.data])}\n`;
}

export const resizeData = (cols: number, rows: number) => `${cols}x${rows}`;

export function parseResize(data: string): { cols: number; rows: number } | null {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(data);
  return match ? { cols: Number(match[1]), rows: Number(match[2]) } : null;
}

/** Reads a recording; null when the header is missing or not asciicast v2. Bad event lines are skipped. */
export function parseCast(text: string): Cast | null {
  const lines = text.split("\n");
  const header = parseHeaderLine(lines[0] ?? "");
  if (!header) return null;
  const events: CastEvent[] = [];
  for (let i = 1; i < lines.length; i++) {
    const event = parseEventLine(lines[i]!);
    if (event) events.push(event);
  }
  return { header, events };
}

/** A recording's first line; null unless it is an asciicast v2 header. */
export function parseHeaderLine(line: string): CastHeader | null {
  try {
    const parsed = JSON.parse(line) as Partial<CastHeader> | null;
    if (parsed?.version !== 2 || !Number.isInteger(parsed.width) || !Number.isInteger(parsed.height)) return null;
    return parsed as CastHeader;
  } catch {
    return null;
  }
}

export function parseEventLine(line: string): CastEvent | null {
  if (!line.startsWith("[")) return null;
  try {
    const value = JSON.parse(line) as unknown;
    if (!Array.isArray(value) || value.length !== 3) return null;
    const [time, code, data] = value as [unknown, unknown, unknown];
    if (typeof time !== "number" || !Number.isFinite(time) || typeof data !== "string") return null;
    if (code !== "o" && code !== "r" && code !== "m") return null;
    return { time, code, data };
  } catch {
    return null; // the line a kill -9 cut in half
  }
}

/** The markers of a recording, in order: the player's chapters. */
export function castMarkers(cast: Cast): { time: number; label: string }[] {
  return cast.events.filter((e) => e.code === "m").map((e) => ({ time: e.time, label: e.data }));
}

/** How long the recording runs, in seconds: its last event. */
export function castDuration(cast: Cast): number {
  return cast.events.length ? cast.events[cast.events.length - 1]!.time : 0;
}
