// The server's copy of a terminal's screen and scrollback (@xterm/headless), from which attaching
// viewers get an exact snapshot and ended sessions keep a transcript. It is also the one terminal that
// answers the program's queries (DA, CPR, OSC 10/11...): its replies go to `onReply`, the pty's input.
// Keep it out of Next's bundle.
import headless from "@xterm/headless";
import { EscapeTail } from "./escape-tail.ts";
import { exactSerializer, type ExactSerializer } from "./exact-snapshot.ts";
import { previewScreen, type ScreenPreview } from "./screen-preview.ts";
import { TerminalExtras, type TerminalColours } from "./terminal-extras.ts";
import { DEFAULT_TERMINAL_COLOURS } from "./terminal-colours.ts";
import { MirrorDisposedError, MirrorLimits, type MirrorSnapshot, type SerializeOptions } from "./mirror-contract.ts";

// Under Node ESM this CommonJS package only has a default export (see STACK-NOTES "xterm on the server").
const { Terminal } = headless;
type HeadlessTerminal = InstanceType<typeof Terminal>;

export { MirrorDisposedError, MirrorLimits, type MirrorSnapshot, type SerializeOptions } from "./mirror-contract.ts";

/**
 * Writes are parsed asynchronously and in order; a callback given to `write` runs right after that
 * chunk is parsed and before the next one is, which is what makes `snapshot` exact. `resize` is queued
 * behind the writes made before it, so output produced for the old size is parsed at the old size.
 */
export class TerminalMirror {
  private readonly terminal: HeadlessTerminal;
  private readonly extras: TerminalExtras;
  private readonly serializer: ExactSerializer;
  private size: { cols: number; rows: number };
  private unparsedChars = 0;
  /** Bumped whenever parsed content or the size changes: a cached snapshot is valid while it matches. */
  private version = 0;
  /**
   * The last snapshot of each kind (with and without modes). Serializing 10,000 lines takes 100-150 ms
   * on the event loop; a viewer that attaches while nothing has changed since (a reload, a second
   * device) gets the same string again at no cost. At most two strings, each the size of a snapshot.
   */
  private readonly cache = new Map<boolean, { version: number; snapshot: MirrorSnapshot }>();
  private disposed = false;
  /** The sequence the output has begun and not finished: a snapshot ends with it (escape-tail.ts). */
  private readonly escapeTail = new EscapeTail();
  private readonly waiters = new Set<(error: Error) => void>();

  constructor(
    cols: number,
    rows: number,
    options: {
      scrollback?: number;
      /** The colours OSC 10/11/12 and OSC 4 queries are answered with. */
      colours?: TerminalColours;
      /** The terminal's answers to the program's queries, in order: write them to the program. */
      onReply?: (data: string) => void;
    } = {},
  ) {
    this.terminal = new Terminal({
      cols,
      rows,
      scrollback: options.scrollback ?? MirrorLimits.SCROLLBACK_LINES,
      allowProposedApi: true,
    });
    const reply = (data: string) => {
      if (!this.disposed) options.onReply?.(data);
    };
    this.terminal.onData(reply);
    this.extras = new TerminalExtras(this.terminal, options.colours ?? DEFAULT_TERMINAL_COLOURS, reply);
    this.serializer = exactSerializer(this.terminal, this.extras);
    this.size = { cols: this.terminal.cols, rows: this.terminal.rows };
  }

  /** The size once every queued write and resize has been applied. */
  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** Chars (bytes, of a write given as UTF-8) written and not yet parsed. */
  get pendingChars(): number {
    return this.unparsedChars;
  }

  /** Queues `data` (text, or text as UTF-8); `onParsed` runs once it is parsed (never after dispose). */
  write(data: string | Uint8Array, onParsed?: () => void): void {
    if (this.disposed) return;
    this.unparsedChars += data.length;
    this.terminal.write(data, () => {
      this.escapeTail.push(data); // in parse order: a snapshot taken in the next callback sees this chunk's end
      this.unparsedChars -= data.length;
      if (data.length > 0) this.version++;
      if (!this.disposed) onParsed?.();
    });
  }

  /** Resolves once everything written so far is parsed. Rejects with MirrorDisposedError if disposed first. */
  flush(): Promise<void> {
    return this.afterPending(() => undefined);
  }

  /** Serializes what has been parsed so far (see `snapshot` for "everything written so far"). */
  serialize(options: SerializeOptions = {}): string {
    if (this.disposed) throw new MirrorDisposedError();
    return this.cached(options.excludeModes ?? false).data;
  }

  /**
   * A snapshot of exactly what was written before this call: taken synchronously right after the last
   * of those writes is parsed, before any later write is, and with the size in force at that point.
   */
  snapshot(options: SerializeOptions = {}): Promise<MirrorSnapshot> {
    return this.afterPending(() => this.cached(options.excludeModes ?? false));
  }

  /** The visible screen after everything written so far, as styled runs (screen-preview.ts). */
  preview(): Promise<ScreenPreview> {
    return this.afterPending(() => previewScreen(this.terminal.buffer.active, this.terminal.cols, this.terminal.rows));
  }

  /** Queued behind earlier writes (see the class comment); `cols`/`rows` report the new size at once. */
  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols, rows };
    this.terminal.write("", () => {
      if (this.disposed) return;
      this.terminal.resize(cols, rows);
      this.version++;
    });
  }

  /** Queries after this are answered with these colours. Queued behind earlier writes, like `resize`. */
  setColours(colours: TerminalColours): void {
    if (this.disposed) return;
    this.terminal.write("", () => this.extras.setTheme(colours));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const reject of this.waiters) reject(new MirrorDisposedError());
    this.waiters.clear();
    this.cache.clear();
    this.serializer.dispose();
    this.extras.dispose();
    this.terminal.dispose();
  }

  /** What has been parsed so far, serialized, from the cache when nothing changed since. */
  private cached(excludeModes: boolean): MirrorSnapshot {
    const hit = this.cache.get(excludeModes);
    if (hit && hit.version === this.version) return hit.snapshot;
    const data = this.serializer.serialize({ excludeModes }) + this.escapeTail.pending;
    const snapshot = { data, cols: this.terminal.cols, rows: this.terminal.rows };
    this.cache.set(excludeModes, { version: this.version, snapshot });
    return snapshot;
  }

  /** Runs `read` synchronously in the write callback that follows everything written so far. */
  private afterPending<T>(read: () => T): Promise<T> {
    if (this.disposed) return Promise.reject(new MirrorDisposedError());
    return new Promise<T>((resolve, reject) => {
      this.waiters.add(reject);
      this.terminal.write("", () => {
        this.waiters.delete(reject);
        if (this.disposed) return;
        try {
          resolve(read());
        } catch (error) {
          reject(error);
        }
      });
    });
  }
}
