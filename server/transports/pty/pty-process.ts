// The process that owns a pseudo-terminal: a thin adapter around node-pty that batches output,
// refuses to start a program that cannot be started, and kills the whole process group.
import fs from "node:fs";
import path from "node:path";
import { spawn as spawnPty, type IPty } from "node-pty";
import { ExitLatch, type Disposable } from "./exit-latch.ts";

/**
 * Output batching, after VS Code's TerminalDataBufferer, but leading-edge: output that arrives while no
 * window is open is emitted at once (an echo is not delayed). A window opens after a large chunk, or
 * after output that came right after the previous one; what arrives while it is open is collected and
 * emitted as one chunk when it closes. A flood or a burst of redraws is batched; typing is not.
 */
export const PtyBatching = {
  /**
   * Milliseconds a window collects output into one chunk. Fewer, larger chunks under a flood (each
   * gets a sequence number and a socket frame); output with no window open goes out at once, so
   * typing adds no latency (docs/performance.md).
   */
  WINDOW_MS: 5,
  /** Chars at which a batch is emitted at once without waiting for the window: bounds one chunk's size. */
  MAX_CHARS: 64 * 1024,
  /**
   * Chars from which an emitted chunk opens a window (a flood reads 4 KB and more at a time). Smaller
   * output (an echo, a prompt) opens none, so the next keystroke's echo does not wait behind it...
   */
  BURST_CHARS: 1024,
  /**
   * ...unless it came less than this many milliseconds after the previous chunk: output at machine
   * speed in small pieces (a program writing line by line), which no typist produces.
   */
  BURST_GAP_MS: 1,
} as const;

/** What the terminal reports itself as when the environment does not say. */
export const DEFAULT_TERM = "xterm-256color";

export interface PtySpawnOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyExit {
  exitCode: number;
  signal?: number;
}

export type { Disposable };

/** The program could not be started (missing, not executable, bad working directory, fork failed). */
export class PtySpawnError extends Error {
  override readonly name = "PtySpawnError";
  constructor(
    message: string,
    readonly command: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class PtyProcess {
  readonly pid: number;
  private readonly dataListeners = new Set<(data: string) => void>();
  private readonly exitLatch = new ExitLatch<PtyExit>();
  private batch = "";
  private batchTimer: NodeJS.Timeout | undefined;
  /** performance.now() of the last chunk emitted with no window open (see PtyBatching). */
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private isPaused = false;
  private readonly subscriptions: Disposable[];

  private constructor(private readonly pty: IPty) {
    this.pid = pty.pid;
    this.subscriptions = [
      pty.onData((data) => this.handleData(data)),
      pty.onExit((e) => this.handleExit({ exitCode: e.exitCode, signal: e.signal || undefined })),
    ];
  }

  /**
   * Starts `command` in a new pty. Throws PtySpawnError with a plain sentence when the program or the
   * working directory is not usable: node-pty on Linux would fork anyway and only report
   * "execvp(3) failed" inside the terminal, so the checks are made here first.
   */
  static spawn(opts: PtySpawnOptions): PtyProcess {
    const cwd = checkWorkingDirectory(opts.command, opts.cwd);
    const executable = resolveExecutable(opts.command, cwd, opts.env.PATH ?? process.env.PATH ?? "");
    try {
      const pty = spawnPty(executable, opts.args, {
        name: opts.env.TERM ?? DEFAULT_TERM,
        cols: opts.cols,
        rows: opts.rows,
        cwd,
        env: opts.env,
        encoding: "utf8",
      });
      return new PtyProcess(pty);
    } catch (cause) {
      throw new PtySpawnError(`Could not start ${opts.command}: ${errorMessage(cause)}`, opts.command, { cause });
    }
  }

  /** Batched output (see PtyBatching). Data still in the batch is delivered before the exit event. */
  onData(cb: (data: string) => void): Disposable {
    this.dataListeners.add(cb);
    return { dispose: () => this.dataListeners.delete(cb) };
  }

  /** Fires once. A listener added after the exit is called on the next tick with the same event. */
  onExit(cb: (e: PtyExit) => void): Disposable {
    return this.exitLatch.on(cb);
  }

  get exited(): boolean {
    return this.exitLatch.value !== undefined;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** Written even while output is paused: input and output are independent (Ctrl-C under a flood). */
  write(data: string | Buffer): void {
    if (this.exitLatch.value) return;
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.exitLatch.value) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The pty may close between the exit check and the ioctl; a resize of a dead pty is moot.
    }
  }

  /**
   * Stops reading output: the program blocks once the kernel's pty buffer is full.
   * Known limit: if the program exits while output is paused, what it wrote and we had not read yet
   * (at most the kernel's pty buffer, tens of KB) is lost. The program is the pty's session leader, and
   * Linux hangs up the terminal when it exits, which flushes the unread buffer (pty_flush_buffer).
   */
  pause(): void {
    if (this.isPaused || this.exitLatch.value) return;
    this.isPaused = true;
    this.pty.pause();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.pty.resume();
  }

  /**
   * Signals the whole process group (the program is a session and group leader in its pty, so its
   * children are in the group too), falling back to the pid alone. SIGHUP by default, as when a
   * terminal window closes.
   */
  kill(signal: string = "SIGHUP"): void {
    // After the exit the group id may be reused by an unrelated process group: never signal it then.
    if (this.exitLatch.value) return;
    try {
      process.kill(-this.pid, signal);
    } catch (groupError) {
      if (!isErrno(groupError, "ESRCH") && !isErrno(groupError, "EPERM")) throw groupError;
      try {
        process.kill(this.pid, signal);
      } catch (error) {
        // ESRCH: already gone, its exit event is on its way.
        if (!isErrno(error, "ESRCH")) throw error;
      }
    }
  }

  /** Stops listening; does not kill (call kill first). */
  dispose(): void {
    this.flushBatch();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.dataListeners.clear();
    this.exitLatch.clear();
  }

  private handleData(data: string): void {
    if (!this.batchTimer) {
      // No window open: emit at once; open one if this looks like the start of a burst.
      const now = performance.now();
      const burst = data.length >= PtyBatching.BURST_CHARS || now - this.lastEmitAt < PtyBatching.BURST_GAP_MS;
      this.lastEmitAt = now;
      this.emit(data);
      if (burst) this.openWindow();
      return;
    }
    // Chunks stay within MAX_CHARS (unless one read alone is larger: Node reads at most 64 KB).
    if (this.batch.length + data.length > PtyBatching.MAX_CHARS) this.emitBatch();
    this.batch += data;
    if (this.batch.length >= PtyBatching.MAX_CHARS) this.emitBatch();
  }

  private openWindow(): void {
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      // Output kept coming: emit it and keep batching; a window that collected nothing ends the burst.
      if (this.batch) {
        this.emitBatch();
        this.openWindow();
      }
    }, PtyBatching.WINDOW_MS);
  }

  /** Emits what is collected; the window, if open, stays open. */
  private emitBatch(): void {
    if (!this.batch) return;
    const chunk = this.batch;
    this.batch = "";
    this.emit(chunk);
  }

  /** Emits what is collected and closes the window (exit, dispose). */
  private flushBatch(): void {
    if (this.batchTimer) {
      clearTimeout(this.batchTimer);
      this.batchTimer = undefined;
    }
    this.emitBatch();
  }

  private emit(chunk: string): void {
    for (const listener of this.dataListeners) listener(chunk);
  }

  private handleExit(exit: PtyExit): void {
    if (this.exitLatch.value) return;
    this.flushBatch();
    this.exitLatch.fire(exit);
  }
}

function checkWorkingDirectory(command: string, cwd: string): string {
  const resolved = path.resolve(cwd);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
  } catch (cause) {
    throw new PtySpawnError(`Could not start ${command}: the folder ${resolved} does not exist`, command, { cause });
  }
  if (!stat.isDirectory()) {
    throw new PtySpawnError(`Could not start ${command}: ${resolved} is not a folder`, command);
  }
  return resolved;
}

/** Resolves `command` the way execvp will (a path if it has a slash, else a PATH search) and checks it can run. */
function resolveExecutable(command: string, cwd: string, searchPath: string): string {
  if (!command) throw new PtySpawnError("Could not start the agent: no command was given", command);
  const candidates = command.includes("/")
    ? [path.resolve(cwd, command)]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.resolve(cwd, dir, command));
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here or not executable: try the next directory, as execvp does.
    }
  }
  throw new PtySpawnError(
    command.includes("/")
      ? `Could not start ${command}: the file does not exist or is not executable`
      : `Could not start ${command}: no executable named ${command} was found on PATH`,
    command,
  );
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
