// One agent in a pty, watched by any number of viewers: numbers every output chunk, keeps the mirror
// and a bounded replay ring, attaches viewers with one replay (or a resume), applies flow control and
// the resize policy. Composes PtyProcess, MirrorKeeper, ViewerStreams, FlowController and FlowPacer;
// knows nothing of sockets.
import { FlowController } from "./flow-control.ts";
import { FlowPacer } from "./flow-pacer.ts";
import { PtyProcess, type Disposable, type PtyExit, type PtySpawnOptions } from "./pty-process.ts";
import {
  activeViewer,
  clampTerminalSize,
  isDeviceActivity,
  type DeviceKind,
  type TerminalSize,
  type ViewerSizeFacts,
} from "./resize-policy.ts";
import { MirrorThread } from "./mirror-thread.ts";
import { MirrorKeeper, type MirrorFactory } from "./mirror-keeper.ts";
import type { ScreenPreview } from "./screen-preview.ts";
import { ExitLatch } from "./exit-latch.ts";
import { ReplayRing } from "./replay-ring.ts";
import type { OutputFrame, TerminalBufferStats, TerminalFrame, ViewerScreen } from "./terminal-frames.ts";
import { ViewerStreams, type Viewer } from "./viewer-streams.ts";

export const TerminalSessionLimits = {
  /**
   * Chars of recent output kept so a viewer back from a short drop gets the chunks it missed instead of
   * a full replay. Bounds the ring's memory (about 2 bytes a char); a longer absence gets a replay.
   */
  REPLAY_BUFFER_CHARS: 1_000_000,
  /** Chunks kept in the ring at most, whatever their size: bounds per-chunk overhead when chunks are tiny. */
  REPLAY_BUFFER_MAX_CHUNKS: 20_000,
  /** Milliseconds between the SIGHUP of `kill()` and a SIGKILL if the program is still running. */
  KILL_GRACE_MS: 3_000,
} as const;

export interface TerminalSessionOptions extends PtySpawnOptions {
  /** Where a viewer whose `send` throws is reported (it is then detached). Defaults to console.error. */
  log?: (message: string) => void;
  /** Makes the session's mirror (tests: one whose worker fails). Defaults to a MirrorThread. */
  mirror?: MirrorFactory;
  /** The default mirror's heap limit, MB (STUDYLOOP_MIRROR_HEAP_MB); MirrorThreadLimits.OLD_GENERATION_MB if unset. */
  mirrorHeapMb?: number;
}

const defaultMirror =
  (oldGenerationMb: number | undefined): MirrorFactory =>
  (size, log) =>
    new MirrorThread(size.cols, size.rows, { log, ...(oldGenerationMb ? { oldGenerationMb } : {}) });

const MIRROR = "mirror";

export class TerminalSession {
  readonly pid: number;
  private readonly flow = new FlowController();
  private readonly pacer: FlowPacer;
  private readonly viewers: ViewerStreams;
  private readonly ring = new ReplayRing({
    maxChars: TerminalSessionLimits.REPLAY_BUFFER_CHARS,
    maxFrames: TerminalSessionLimits.REPLAY_BUFFER_MAX_CHUNKS,
  });
  private seq = 0;
  private size: TerminalSize;
  /** Orders the viewers' claims on the size for the resize policy; its value is the latest claim. */
  private clock = 0;
  /** Some viewer has claimed the size: later size reports alone no longer resize (resize-policy.ts). */
  private claimed = false;
  private sizedFor: DeviceKind | undefined;
  /** Output listeners (onOutput): the recorder, the notifier's terminal watch. */
  private readonly outputListeners = new Set<(frame: OutputFrame) => void>();
  private killTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly exited = new ExitLatch<PtyExit>();
  private readonly subscriptions: Disposable[];
  private readonly mirror: MirrorKeeper;

  private constructor(
    private readonly pty: PtyProcess,
    makeMirror: MirrorFactory,
    size: TerminalSize,
    private readonly log: (message: string) => void,
  ) {
    this.pid = pty.pid;
    this.size = size;
    this.flow.add(MIRROR, { required: true });
    this.pacer = new FlowPacer(this.flow, pty, () => this.running());
    this.viewers = new ViewerStreams({
      flow: this.flow,
      ring: this.ring,
      snapshot: () => this.mirror.snapshot(),
      seq: () => this.seq,
      sizedFor: () => this.sizedFor,
      paced: () => this.pacer.update(),
      letGo: (viewerId) => this.detach(viewerId),
      log,
    });
    this.mirror = new MirrorKeeper({
      make: makeMirror,
      log,
      pid: pty.pid,
      answer: (data) => this.pty.write(data),
      listening: () => this.running(),
      size: () => this.size,
      recent: () => this.ring.all(),
    });
    this.subscriptions = [pty.onData((data) => this.handleOutput(data)), pty.onExit((exit) => this.handleExit(exit))];
  }

  /** Open, and its program still running: its output is paced and its queries answered. */
  private running(): boolean {
    return !this.disposed && !this.exited.value;
  }

  /** Starts the program. Throws PtySpawnError (pty-process.ts) with a plain sentence if it cannot start. */
  static start(opts: TerminalSessionOptions): TerminalSession {
    const size = clampTerminalSize({ cols: opts.cols, rows: opts.rows });
    const pty = PtyProcess.spawn({ ...opts, ...size });
    const log = opts.log ?? console.error;
    return new TerminalSession(pty, opts.mirror ?? defaultMirror(opts.mirrorHeapMb), size, log);
  }

  /** The number of the last output chunk (0 before any output). */
  get lastSeq(): number {
    return this.seq;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  get cols(): number {
    return this.size.cols;
  }

  get rows(): number {
    return this.size.rows;
  }

  /** Set once the program has exited. */
  get exitStatus(): PtyExit | undefined {
    return this.exited.value;
  }

  bufferStats(): TerminalBufferStats {
    return {
      replayBufferChars: this.ring.chars,
      mirrorPendingChars: this.mirror.pendingChars,
      paused: this.pty.paused,
      ...this.viewers.stats(),
    };
  }

  /**
   * Attaches (or re-attaches) a viewer. With `sinceSeq` and the ring still holding everything after it,
   * the viewer gets just the frames it missed; otherwise one `replay` frame covering exactly chunks
   * <= its seq, then every later chunk, with no gap and no duplicate. Resolves once the first frame is sent.
   */
  async attach(viewerId: string, send: (msg: TerminalFrame) => void, opts: { sinceSeq?: number } = {}): Promise<void> {
    await this.attachNow(viewerId, send, opts).replayed;
  }

  /**
   * `attach`, split at the moment the viewer is registered: when this returns, its input is accepted
   * and output is kept for it, so its page can be told it is live without waiting for the replay (a
   * 10,000-line snapshot). `replayed` settles once the first frame is sent; if the snapshot cannot be
   * taken, the viewer is detached (it would otherwise hold the program's output back) and it rejects.
   * Throws at once if the session is closed.
   */
  attachNow(viewerId: string, send: (msg: TerminalFrame) => void, opts: { sinceSeq?: number } = {}): { replayed: Promise<void> } {
    if (this.disposed) throw new Error(`Could not attach to the terminal of process ${this.pid}: it has been closed`);
    // Re-attaching replaces the viewer's stream (and its flow count) but keeps what the resize policy knows.
    return this.viewers.attach(viewerId, send, opts.sinceSeq);
  }

  detach(viewerId: string): void {
    if (!this.viewers.remove(viewerId)) return;
    this.applySizePolicy();
    this.pacer.update();
    // The last viewer left (a reload, a dropped phone): it is likely back soon, and nobody is typing
    // now. Take the preview the reloaded page is rendered with, then the snapshot it attaches to, while
    // nobody waits for them; the mirror keeps both until the screen changes.
    if (this.viewers.size === 0 && !this.disposed) {
      void this.mirror.preview().catch(() => undefined);
      void this.mirror.snapshot().catch(() => undefined);
    }
  }

  /**
   * Writes what a viewer typed, even while output is paused (so Ctrl-C works under a flood). Typing
   * claims the size; automatic reports (focus in/out) do not. `binary`: each char is one byte (xterm's
   * onBinary: mouse reports in the default encoding), not text to encode as UTF-8.
   */
  input(viewerId: string, data: string, opts: { binary?: boolean } = {}): void {
    if (this.disposed || this.exited.value) return;
    const viewer = this.viewers.get(viewerId);
    if (viewer && isDeviceActivity(data)) this.claim(viewer);
    this.pty.write(opts.binary ? Buffer.from(data, "latin1") : data);
  }

  /**
   * Records a viewer's screen (the size that would fit it, its kind, its colours). It takes the size
   * only if it is the active device, or the first to report one (resize-policy.ts).
   */
  resize(viewerId: string, screen: ViewerScreen): void {
    const viewer = this.viewers.get(viewerId);
    if (!viewer || this.disposed) return;
    viewer.screen = { ...screen, ...clampTerminalSize(screen) };
    if (!this.claimed) this.claim(viewer);
    else this.applySizePolicy();
  }

  /** "Fit to this screen": the viewer becomes the active device. */
  fit(viewerId: string): void {
    const viewer = this.viewers.get(viewerId);
    if (viewer && !this.disposed) this.claim(viewer);
  }

  /** A viewer has parsed `chars` more chars of output/replay data. */
  ack(viewerId: string, chars: number): void {
    if (!this.disposed) this.viewers.acked(viewerId, chars);
  }

  /**
   * The one way to watch a terminal without being a viewer (the recorder, the notifier): every output
   * chunk and size change from now on, in order, as viewers get them. Synchronous on the output path,
   * so keep the listener cheap; one that throws is logged and the others still run.
   */
  onOutput(listener: (frame: OutputFrame) => void): Disposable {
    this.outputListeners.add(listener);
    return { dispose: () => void this.outputListeners.delete(listener) };
  }

  /** Fires once when the program exits (after its last output chunk), also if it already has. */
  onExit(cb: (e: { exitCode: number; signal?: number }) => void): Disposable {
    return this.exited.on(cb);
  }

  /** The screen and scrollback after all output so far, without terminal modes: for saved transcripts. */
  async snapshotTranscript(): Promise<string> {
    return (await this.mirror.snapshot({ excludeModes: true })).data;
  }

  /** The visible screen now, as styled runs: for a page to paint before its terminal attaches. */
  screenPreview(): Promise<ScreenPreview> {
    return this.mirror.preview();
  }

  /** SIGHUP to the program's process group, then SIGKILL after KILL_GRACE_MS if it is still running. */
  kill(): void {
    if (this.exited.value) return;
    this.pty.kill("SIGHUP");
    if (this.killTimer) return;
    this.killTimer = setTimeout(() => {
      this.killTimer = undefined;
      this.pty.kill("SIGKILL");
    }, TerminalSessionLimits.KILL_GRACE_MS);
    this.killTimer.unref();
  }

  /** Detaches everyone and frees the mirror; kills the program if it is still running. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.viewers.clear();
    this.exited.clear();
    this.pacer.stop();
    this.mirror.dispose();
    this.ring.clear();
    if (this.exited.value) {
      for (const subscription of this.subscriptions) subscription.dispose();
      this.pty.dispose();
    } else {
      // Keep listening until it exits so the SIGKILL timer knows when to stand down.
      this.pty.resume();
      this.kill();
    }
  }

  private handleOutput(data: string): void {
    if (this.disposed) return;
    const frame: OutputFrame = { type: "output", seq: ++this.seq, data };
    this.ring.push(frame);
    // Viewers first: an echo is on its way to the page before the listeners (recorder, notifier) run.
    this.viewers.deliver(frame);
    this.emitFrame(frame);
    this.flow.sent(MIRROR, data.length);
    this.mirror.write(data, () => {
      this.flow.acked(MIRROR, data.length);
      this.pacer.update();
    });
    this.pacer.update();
  }

  private handleExit(exit: PtyExit): void {
    if (this.killTimer) clearTimeout(this.killTimer);
    this.killTimer = undefined;
    this.pacer.stop();
    // Disposed already: nobody is listening any more; only let go of the pty.
    this.exited.fire(exit, !this.disposed);
    if (this.disposed) {
      for (const subscription of this.subscriptions) subscription.dispose();
      this.pty.dispose();
    }
  }

  private claim(viewer: Viewer): void {
    viewer.claimedAt = ++this.clock;
    this.claimed = true;
    this.applySizePolicy();
  }

  private emitFrame(frame: OutputFrame): void {
    for (const listener of this.outputListeners) {
      try {
        listener(frame);
      } catch (error) {
        this.log(`A terminal output listener failed: ${String(error)}`);
      }
    }
  }

  /** The active device's screen sets the size (and the colours queries are answered with). */
  private applySizePolicy(): void {
    if (this.disposed) return;
    const facts: ViewerSizeFacts[] = [...this.viewers.all()].map((viewer) => ({
      viewerId: viewer.id,
      size: viewer.screen,
      claimedAt: viewer.claimedAt,
    }));
    const active = activeViewer(facts, this.claimed ? this.clock : undefined);
    const screen = active ? this.viewers.get(active.viewerId)?.screen : undefined;
    if (!screen) return; // nobody active: everything stays as it is
    if (screen.dark !== undefined) this.mirror.setDark(screen.dark);
    const next = clampTerminalSize(screen);
    const sizedFor = screen.device ?? this.sizedFor;
    if (next.cols === this.size.cols && next.rows === this.size.rows && sizedFor === this.sizedFor) return;
    this.size = next;
    this.sizedFor = sizedFor;
    this.pty.resize(next.cols, next.rows);
    this.mirror.resize(next.cols, next.rows);
    const frame: OutputFrame = { type: "resize", seq: this.seq, cols: next.cols, rows: next.rows, ...(sizedFor ? { sizedFor } : {}) };
    this.ring.push(frame);
    this.emitFrame(frame);
    this.viewers.deliver(frame);
  }
}
