// Appends one session's recording to its .cast file, off the hot path: events are kept in memory as
// they come (a push, nothing else) and written together every FLUSH_MS (sooner under a flood:
// FLUSH_CHARS) by one asynchronous write, so a kill -9 loses at most the last FLUSH_MS and the write in
// flight. Bounded: past maxBytes a marker says so and the recording stops (the session goes on).
import fs from "node:fs";
import { castTime, encodeEvent, encodeHeader, resizeData, type CastCode } from "./asciicast.ts";

export const CastWriterLimits = {
  /** Milliseconds between writes: what a kill -9 can lose (the issue allows about a second). */
  FLUSH_MS: 250,
  /** Output chunks closer together than this (ms) are written as one event: fewer, longer lines. */
  COALESCE_MS: 8,
  /** Chars of output joined into one event at most: keeps each line (and a transcript write) small. */
  COALESCE_MAX_CHARS: 16_384,
  /**
   * Chars queued that are written without waiting for FLUSH_MS: under a flood, 250 ms of output held
   * as strings outlives the main thread's young generation, and its encoded batch (1.5-2 MB) stays
   * counted long after; a 50 MB flood's peak was ~10 MiB higher (docs/performance/memory.md, "Round 8: memory").
   */
  FLUSH_CHARS: 131_072,
} as const;

export interface CastWriterOptions {
  readonly cols: number;
  readonly rows: number;
  /** Bytes the file may reach; the stop marker is written past it. */
  readonly maxBytes: number;
  readonly title?: string;
  /** Wall-clock ms the recording's time 0 stands for (the session's start); default: now. */
  readonly startedAtMs?: number;
  readonly log?: (line: string) => void;
  /** Told after each write, with the file's size: the indexer reads up to there. */
  readonly onFlushed?: (bytes: number) => void;
}

export interface Pending {
  ms: number;
  code: CastCode;
  data: string;
}

export class CastWriter {
  private readonly startMs: number;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** A write asked for as soon as this turn of the event loop is over: FLUSH_CHARS are queued. */
  private soon: NodeJS.Immediate | undefined;
  private pendingChars = 0;
  private writing: Promise<void> = Promise.resolve();
  private written: number;
  private full = false;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly fd: number,
    headerBytes: number,
    private readonly options: CastWriterOptions,
  ) {
    this.written = headerBytes;
    // Times count from the session's start, so a marker's time matches the session's timeline.
    this.startMs = performance.now() - (options.startedAtMs === undefined ? 0 : Math.max(0, Date.now() - options.startedAtMs));
  }

  /** Creates (or truncates) the file and writes the header; throws if the file cannot be written. */
  static open(file: string, options: CastWriterOptions): CastWriter {
    const fd = fs.openSync(file, "w", 0o600);
    const header = Buffer.from(
      encodeHeader({
        version: 2,
        width: options.cols,
        height: options.rows,
        timestamp: Math.floor((options.startedAtMs ?? Date.now()) / 1000),
        ...(options.title ? { title: options.title } : {}),
        env: { TERM: "xterm-256color" },
      }),
    );
    fs.writeSync(fd, header);
    return new CastWriter(file, fd, header.length, options);
  }

  /** Bytes in the file once what is queued has been written. */
  get bytes(): number {
    return this.written;
  }

  /** True once the size limit stopped the recording. */
  get stopped(): boolean {
    return this.full;
  }

  /** Milliseconds since the recording began: the time a marker or a search hit is placed at. */
  now(): number {
    return performance.now() - this.startMs;
  }

  output(data: string): void {
    this.push("o", data);
  }

  resize(cols: number, rows: number): void {
    this.push("r", resizeData(cols, rows));
  }

  marker(label: string): void {
    this.push("m", label);
  }

  /** Writes what is queued now; resolves once it is on disk (in the file, not necessarily synced). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.soon) clearImmediate(this.soon);
    this.timer = undefined;
    this.soon = undefined;
    const batch = this.pending;
    this.pending = [];
    this.pendingChars = 0;
    if (batch.length === 0 || this.closed) return this.writing;
    const bytes = this.encode(batch);
    const upTo = this.written;
    if (bytes.length > 0) {
      this.writing = this.writing.then(
        () =>
          new Promise<void>((resolve) => {
            fs.write(this.fd, bytes, 0, bytes.length, null, (error) => {
              if (error) this.options.log?.(`Could not write the recording ${this.file}: ${error.message}`);
              else this.options.onFlushed?.(upTo);
              resolve();
            });
          }),
      );
    }
    return this.writing;
  }

  /** A last marker (e.g. "ended"), everything queued, then the file is closed. */
  async close(lastMarker?: string): Promise<void> {
    if (this.closed) return this.writing;
    if (lastMarker && !this.full) this.marker(lastMarker);
    await this.flush();
    this.closed = true;
    await new Promise<void>((resolve) => fs.close(this.fd, () => resolve()));
  }

  private push(code: CastCode, data: string): void {
    if (this.full || this.closed) return;
    this.pending.push({ ms: this.now(), code, data });
    this.pendingChars += data.length;
    if (this.pendingChars >= CastWriterLimits.FLUSH_CHARS) this.soon ??= setImmediate(() => void this.flush());
    this.timer ??= setTimeout(() => void this.flush(), CastWriterLimits.FLUSH_MS);
  }

  /**
   * The batch as event lines (UTF-8), output chunks joined; stops (with its marker) at the size limit.
   * Each line is measured, then all are written into one buffer: a flood's lines joined into one string
   * first (round 5) cost about five times as much CPU (docs/performance.md, round 7).
   */
  private encode(batch: Pending[]): Buffer {
    const events = coalesce(batch);
    const lines: string[] = [];
    const sizes: number[] = [];
    let total = 0;
    for (const event of events) {
      const line = eventLine(event);
      const bytes = Buffer.byteLength(line);
      if (this.written + total + bytes > this.options.maxBytes) {
        const stop = encodeEvent({
          time: castTime(event.ms),
          code: "m",
          data: `recording stopped: it reached its ${sizeWords(this.options.maxBytes)} limit`,
        });
        lines.push(stop);
        sizes.push(Buffer.byteLength(stop));
        total += sizes.at(-1)!;
        this.full = true;
        this.pending = [];
        break;
      }
      lines.push(line);
      sizes.push(bytes);
      total += bytes;
    }
    this.written += total;
    const all = Buffer.allocUnsafe(total);
    let at = 0;
    for (let i = 0; i < lines.length; i++) at += all.write(lines[i]!, at, sizes[i]!, "utf8");
    return all;
  }
}

const eventLine = (event: Pending) => encodeEvent({ time: castTime(event.ms), code: event.code, data: event.data });

/**
 * Pure: the batch with runs of output chunks closer than COALESCE_MS (and within COALESCE_MAX_CHARS)
 * joined into one event, at the first chunk's time; resizes and markers as they are, in order.
 */
export function coalesce(batch: readonly Pending[]): Pending[] {
  const out: Pending[] = [];
  let joined: Pending | undefined;
  for (const event of batch) {
    if (
      joined &&
      event.code === "o" &&
      event.ms - joined.ms < CastWriterLimits.COALESCE_MS &&
      joined.data.length + event.data.length <= CastWriterLimits.COALESCE_MAX_CHARS
    ) {
      joined.data += event.data;
      continue;
    }
    joined = event.code === "o" ? { ...event } : undefined;
    out.push(joined ?? event);
  }
  return out;
}

/** 200 MB, 2 kB: the limit as the learner set it. */
export function sizeWords(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${Math.max(1, Math.round(bytes / 1_000))} kB`;
}
