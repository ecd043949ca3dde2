// The session's handle on its terminal mirror, which parses on a worker thread (mirror-worker.ts).
// Parsing every byte a second time (Chromium parses it too) costs about a second of CPU per 50 MB; on
// the server's event loop that time was taken from socket.io and the API in the middle of a flood. On
// its own thread, at a lower priority, it uses what CPU is left and only ever delays the mirror itself,
// which flow control bounds (the session counts the mirror's unparsed chars like a viewer's unacked).
import { Worker } from "node:worker_threads";
import { workerSource } from "../../threads/worker-source.ts";
import type { MirrorReply, MirrorRequest, MirrorWorkerData } from "./mirror-protocol.ts";
import type { ScreenPreview } from "./screen-preview.ts";
import { MirrorDisposedError, MirrorLimits, type MirrorSnapshot, type SerializeOptions } from "./mirror-contract.ts";
import type { TerminalColours } from "./terminal-extras.ts";
import type { ThreadMemory } from "./thread-memory.ts";

export const MirrorThreadLimits = {
  /**
   * The worker thread's nice value. Under a flood the browser's parser is what the learner waits for;
   * the mirror can catch up in the gaps (a snapshot waits for it, and only a reattach asks for one).
   */
  NICE: 10,
  /**
   * The worker's young generation (V8's default grows to 32 MB). What a flood passes through it is
   * short-lived (the posted chunk, the parser's strings): a small one costs more frequent scavenges on
   * this thread and keeps ~30 MiB of RSS off every live session (docs/performance.md, round 4).
   */
  YOUNG_GENERATION_MB: 3,
  /**
   * The worker's old generation limit. Not a budget (a live mirror holds ~10-30 MB; serializing 10,000
   * lines of 300 columns with every cell styled took 470 MB) but a smaller limit than the process's
   * default (a quarter of the machine's memory) makes V8 collect at tens of MB instead of letting the
   * flood's garbage pile up to 60-90 MB after each flood. Past it the worker stops and the mirror fails
   * as when its worker dies (the session goes on; a reload cannot restore the screen).
   */
  OLD_GENERATION_MB: 1024,
} as const;

/** Every mirror not yet disposed: the memory report asks each worker for its own figures. */
const liveMirrors = new Set<MirrorThread>();

/** Each live mirror worker's own memory (a failed worker is left out). */
export async function mirrorsMemory(): Promise<ThreadMemory[]> {
  const all = await Promise.allSettled([...liveMirrors].map((m) => m.memory()));
  return all.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
}

/** mirror-worker.ts bundled (with @xterm/headless) into one plain script (worker-source.ts). */
function mirrorWorkerSource(): string {
  return workerSource(new URL("./mirror-worker.ts", import.meta.url), new URL("./mirror-worker.cjs", import.meta.url));
}

export class MirrorUnavailableError extends Error {
  override readonly name = "MirrorUnavailableError";
  constructor(reason: string) {
    super(`The terminal's screen copy stopped working (${reason}); the agent still runs, but a reload cannot restore the screen`);
  }
}

/** One message to the worker: the writes it joins, called back in order once it is parsed. */
interface PendingWrite {
  readonly chars: number;
  readonly onParsed: (() => void)[];
}

/** Writes not yet posted to the worker. */
interface Batch {
  readonly parts: string[];
  chars: number;
  readonly onParsed: (() => void)[];
}

const emptyBatch = (): Batch => ({ parts: [], chars: 0, onParsed: [] });

/**
 * The batch's UTF-8 in one buffer of its own, moved to the worker rather than copied. A string crosses
 * postMessage as a copy, at 2 bytes a char once it holds any char past Latin-1 (an agent's UI: mostly
 * ASCII with box drawing and bullets), and waits in xterm's write queue in the worker's heap until parsed
 * (up to the mirror's high watermark, 4 M chars). As bytes it is 1 byte an ASCII char (3 for box
 * drawing), outside both heaps, and xterm parses UTF-8 as it is. Output chunks are whole code points
 * (node-pty decodes with a StringDecoder), so the bytes decode to exactly the chars written.
 */
function utf8Of(parts: readonly string[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return textEncoder.encode(parts[0]!);
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part, "utf8");
  const bytes = Buffer.allocUnsafeSlow(size); // its own ArrayBuffer, not a slice of Buffer's pool
  let at = 0;
  for (const part of parts) at += bytes.write(part, at, "utf8");
  return bytes;
}

const textEncoder = new TextEncoder();

/** A snapshot or preview asked of the worker. */
interface PendingRead {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Same contract as TerminalMirror: writes are parsed in order, `onParsed` runs once a write is parsed,
 * `snapshot` covers exactly what was written before the call, and `resize` is queued behind earlier writes.
 * Messages to the worker keep their order, which is all the exactness needs.
 */
export class MirrorThread {
  private readonly worker: Worker;
  private size: { cols: number; rows: number };
  /** Messages posted and not yet parsed, oldest first (a few dozen at most: see the flow-control band). */
  private readonly writes: PendingWrite[] = [];
  private unparsedChars = 0;
  private readonly reads = new Map<number, PendingRead>();
  private nextReadId = 1;
  /** Writes not yet posted: joined into one message after this turn of the event loop (see `write`). */
  private batch: Batch = emptyBatch();
  private batchPost: NodeJS.Immediate | undefined;
  /** Bumped by every write and resize: a cached preview is current while it matches. */
  private version = 0;
  /**
   * The last preview asked for. A page render asks for one, and a reload's render often comes while
   * the worker is busy serializing the whole scrollback for the reattach (terminal-session.ts detach):
   * taken before that, and unchanged since, it is answered without waiting behind it.
   */
  private previewCache: { version: number; preview: Promise<ScreenPreview> } | undefined;
  private failure: Error | undefined;
  private disposed = false;
  /** Gets the terminal's answers to the program's queries, in order (see TerminalMirror). */
  onReply: ((data: string) => void) | undefined;
  /** Told once if the worker fails: from then on reads reject and writes are dropped. */
  onFailure: ((reason: string) => void) | undefined;

  constructor(
    cols: number,
    rows: number,
    options: {
      scrollback?: number;
      log?: (message: string) => void;
      /** The worker's script (tests: a worker that fails); defaults to mirror-worker.ts, bundled. */
      workerSource?: string;
      colours?: TerminalColours;
      /** The terminal's answers to the program's queries, in order (see TerminalMirror). */
      onReply?: (data: string) => void;
      /** The worker's old generation limit, MB (the setting STUDYLOOP_MIRROR_HEAP_MB); OLD_GENERATION_MB by default. */
      oldGenerationMb?: number;
    } = {},
  ) {
    this.onReply = options.onReply;
    this.size = { cols, rows };
    const workerData: MirrorWorkerData = {
      cols,
      rows,
      scrollback: options.scrollback ?? MirrorLimits.SCROLLBACK_LINES,
      nice: MirrorThreadLimits.NICE,
      ...(options.colours ? { colours: options.colours } : {}),
    };
    const log = options.log ?? console.error;
    this.worker = new Worker(options.workerSource ?? mirrorWorkerSource(), {
      eval: true,
      workerData,
      resourceLimits: {
        maxYoungGenerationSizeMb: MirrorThreadLimits.YOUNG_GENERATION_MB,
        maxOldGenerationSizeMb: options.oldGenerationMb ?? MirrorThreadLimits.OLD_GENERATION_MB,
      },
    });
    // The worker must not keep a server (or a test) alive on its own.
    this.worker.unref();
    this.worker.on("message", (reply: MirrorReply) => this.handleReply(reply));
    this.worker.on("error", (error) => {
      log(`The terminal mirror's worker failed: ${String(error)}`);
      this.fail(String(error));
    });
    this.worker.on("exit", (code) => {
      if (!this.disposed) this.fail(`its worker exited with code ${code}`);
    });
    liveMirrors.add(this);
  }

  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** Chars written and not yet parsed. */
  get pendingChars(): number {
    return this.unparsedChars;
  }

  write(data: string, onParsed?: () => void): void {
    if (this.disposed) return;
    if (this.failure) {
      onParsed?.(); // nothing will parse it: do not hold the session's output back for it
      return;
    }
    // Posted once this turn of the event loop is over: the same output's socket writes to viewers go
    // first (an echo is not delayed by waking the worker), and a burst of chunks is one message.
    this.version++;
    this.batch.parts.push(data);
    this.batch.chars += data.length;
    if (onParsed) this.batch.onParsed.push(onParsed);
    this.unparsedChars += data.length;
    this.batchPost ??= setImmediate(() => this.postBatch());
  }

  snapshot(options: SerializeOptions = {}): Promise<MirrorSnapshot> {
    return this.read((id) => ({ type: "snapshot", id, excludeModes: options.excludeModes ?? false }));
  }

  /** The visible screen after everything written so far (screen-preview.ts). */
  preview(): Promise<ScreenPreview> {
    if (this.previewCache?.version === this.version) return this.previewCache.preview;
    const preview = this.read<ScreenPreview>((id) => ({ type: "preview", id }));
    const entry = { version: this.version, preview };
    this.previewCache = entry;
    preview.catch(() => {
      if (this.previewCache === entry) this.previewCache = undefined;
    });
    return preview;
  }

  /** The worker's own heap and external memory (its isolate is not the server's: see ThreadMemory). */
  memory(): Promise<ThreadMemory> {
    return this.read<ThreadMemory>((id) => ({ type: "memory", id }));
  }

  /** Colour queries after everything written so far are answered with these colours. */
  setColours(colours: TerminalColours): void {
    if (this.disposed || this.failure) return;
    this.postBatch();
    this.post({ type: "colours", colours });
  }

  resize(cols: number, rows: number): void {
    if (this.disposed || (cols === this.size.cols && rows === this.size.rows)) return;
    this.size = { cols, rows };
    this.version++;
    if (this.failure) return;
    this.postBatch(); // output written before the resize is parsed at the old size
    this.post({ type: "resize", cols, rows });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    liveMirrors.delete(this);
    for (const pending of this.reads.values()) pending.reject(new MirrorDisposedError());
    this.reads.clear();
    this.writes.length = 0;
    this.takeBatch();
    this.unparsedChars = 0;
    void this.worker.terminate();
  }

  private post(request: MirrorRequest): void {
    this.worker.postMessage(request);
  }

  private postBatch(): void {
    if (this.disposed || this.failure) return;
    const { parts, chars, onParsed } = this.takeBatch();
    if (parts.length === 0) return;
    this.writes.push({ chars, onParsed });
    const data = utf8Of(parts);
    this.worker.postMessage({ type: "write", data } satisfies MirrorRequest, [data.buffer]);
  }

  /** The writes not yet posted, leaving the batch empty and no post scheduled. */
  private takeBatch(): Batch {
    if (this.batchPost) clearImmediate(this.batchPost);
    this.batchPost = undefined;
    const batch = this.batch;
    this.batch = emptyBatch();
    return batch;
  }

  /** Asks the worker for a read, queued behind everything written so far. */
  private read<T>(request: (id: number) => MirrorRequest): Promise<T> {
    if (this.disposed) return Promise.reject(new MirrorDisposedError());
    if (this.failure) return Promise.reject(this.failure);
    this.postBatch(); // the read covers everything written before it
    const id = this.nextReadId++;
    return new Promise<T>((resolve, reject) => {
      this.reads.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post(request(id));
    });
  }

  private handleReply(reply: MirrorReply): void {
    if (this.disposed) return;
    switch (reply.type) {
      case "parsed":
        for (let i = 0; i < reply.writes && this.writes.length > 0; i++) this.parsedOne();
        return;
      case "reply":
        this.onReply?.(reply.data);
        return;
      case "snapshot":
        this.settleRead(reply.id, (pending) => pending.resolve(reply.snapshot));
        return;
      case "preview":
        this.settleRead(reply.id, (pending) => pending.resolve(reply.preview));
        return;
      case "memory":
        this.settleRead(reply.id, (pending) => pending.resolve(reply.memory));
        return;
      case "read-failed":
        this.settleRead(reply.id, (pending) => pending.reject(new MirrorUnavailableError(reply.message)));
        return;
    }
  }

  private parsedOne(): void {
    const write = this.writes.shift()!;
    this.unparsedChars -= write.chars;
    for (const onParsed of write.onParsed) onParsed();
  }

  private settleRead(id: number, settle: (pending: PendingRead) => void): void {
    const pending = this.reads.get(id);
    if (!pending) return;
    this.reads.delete(id);
    settle(pending);
  }

  /** The worker is gone: release whoever waits on it so the session's output is not held back forever. */
  private fail(reason: string): void {
    if (this.failure || this.disposed) return;
    this.failure = new MirrorUnavailableError(reason);
    const { chars, onParsed } = this.takeBatch();
    this.writes.push({ chars, onParsed });
    while (this.writes.length > 0) this.parsedOne();
    for (const pending of this.reads.values()) pending.reject(this.failure);
    this.reads.clear();
    this.onFailure?.(reason);
  }
}
