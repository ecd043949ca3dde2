// Each viewer's stream of a terminal's frames: a replay (or the chunks it missed) when it attaches, then
// every chunk in order, with no gap and no duplicate. While a snapshot is taken for it, frames wait in
// its queue; while it is stalled (flow-control.ts), its live output is skipped and it is resynced with a
// fresh snapshot once it catches up. Every char it is sent is counted in flow control. Knows nothing of
// the pty or sockets; terminal-session.ts composes it.
import type { FlowController } from "./flow-control.ts";
import type { MirrorSnapshot } from "./mirror-contract.ts";
import type { ReplayRing } from "./replay-ring.ts";
import type { DeviceKind } from "./resize-policy.ts";
import type { OutputFrame, TerminalFrame, ViewerScreen } from "./terminal-frames.ts";

export interface Viewer {
  readonly id: string;
  readonly send: (frame: TerminalFrame) => void;
  /** `syncing`: a snapshot is being taken; frames produced meanwhile wait in `queued`. */
  state: "syncing" | "live";
  queued: OutputFrame[];
  /** Live output was skipped while it was stalled: resync it with a replay once it catches up. */
  missedOutput: boolean;
  /** What the resize policy knows of it (resize-policy.ts): kept when it attaches again. */
  screen: ViewerScreen | undefined;
  claimedAt: number | undefined;
}

export interface ViewerStreamsDeps {
  readonly flow: FlowController;
  readonly ring: ReplayRing;
  /** The mirror's snapshot, queued behind every chunk numbered so far. */
  readonly snapshot: () => Promise<MirrorSnapshot>;
  /** The number of the last output chunk. */
  readonly seq: () => number;
  /** The device kind the terminal is sized for, told with each replay. */
  readonly sizedFor: () => DeviceKind | undefined;
  /** Flow counts changed: the pty may pause or resume. */
  readonly paced: () => void;
  /** Lets a viewer go that could not be sent to or given its replay (the session's detach). */
  readonly letGo: (viewerId: string) => void;
  readonly log: (message: string) => void;
}

/** The flow controller's id for a viewer. */
export const viewerKey = (viewerId: string) => `viewer:${viewerId}`;

export class ViewerStreams {
  private readonly viewers = new Map<string, Viewer>();

  constructor(private readonly deps: ViewerStreamsDeps) {}

  get size(): number {
    return this.viewers.size;
  }

  get(viewerId: string): Viewer | undefined {
    return this.viewers.get(viewerId);
  }

  all(): IterableIterator<Viewer> {
    return this.viewers.values();
  }

  /**
   * Registers a viewer (replacing its stream, and its flow count, if it was attached) and starts its
   * stream: the chunks after `sinceSeq` when the ring still holds them all, else one replay. `replayed`
   * settles once its first frame is sent; if the snapshot cannot be taken, the viewer is let go and it
   * rejects.
   */
  attach(viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq: number | undefined): { replayed: Promise<void> } {
    const { flow, ring } = this.deps;
    const previous = this.viewers.get(viewerId);
    flow.remove(viewerKey(viewerId));
    const viewer: Viewer = {
      id: viewerId,
      send,
      state: "syncing",
      queued: [],
      missedOutput: false,
      screen: previous?.screen,
      claimedAt: previous?.claimedAt,
    };
    this.viewers.set(viewerId, viewer);
    flow.add(viewerKey(viewerId));
    if (sinceSeq !== undefined && ring.canResumeFrom(sinceSeq, this.deps.seq())) {
      viewer.state = "live";
      for (const frame of ring.after(sinceSeq)) this.deliverTo(viewer, frame);
      this.deps.paced();
      return { replayed: Promise.resolve() };
    }
    const replayed = this.sync(viewer).catch((error: unknown) => {
      this.replayFailed(viewer, error);
      throw error;
    });
    return { replayed };
  }

  /** Forgets a viewer and its flow count; false if it was not attached. */
  remove(viewerId: string): boolean {
    if (!this.viewers.delete(viewerId)) return false;
    this.deps.flow.remove(viewerKey(viewerId));
    return true;
  }

  clear(): void {
    this.viewers.clear();
  }

  /** A new frame for every viewer. */
  deliver(frame: OutputFrame): void {
    for (const viewer of this.viewers.values()) this.deliverTo(viewer, frame);
  }

  /** A viewer has parsed `chars` more chars; a stalled one that caught up is resynced. */
  acked(viewerId: string, chars: number): void {
    const viewer = this.viewers.get(viewerId);
    if (!viewer) return;
    const { flow } = this.deps;
    flow.acked(viewerKey(viewerId), chars);
    if (viewer.missedOutput && viewer.state === "live" && !flow.isStalled(viewerKey(viewerId))) {
      // What it missed is gone: it gets a fresh snapshot.
      void this.sync(viewer).catch((error: unknown) => this.replayFailed(viewer, error));
    }
    this.deps.paced();
  }

  /** Chars sent and not yet acknowledged, summed over viewers, and the viewers stalled now. */
  stats(): { viewerUnackedChars: number; stalledViewers: string[] } {
    const { flow } = this.deps;
    let viewerUnackedChars = 0;
    const stalledViewers: string[] = [];
    for (const id of this.viewers.keys()) {
      viewerUnackedChars += flow.outstandingChars(viewerKey(id));
      if (flow.isStalled(viewerKey(id))) stalledViewers.push(id);
    }
    return { viewerUnackedChars, stalledViewers };
  }

  /** Sends a live frame to one viewer, or queues it while the viewer's snapshot is being taken. */
  private deliverTo(viewer: Viewer, frame: OutputFrame): void {
    const { flow } = this.deps;
    const key = viewerKey(viewer.id);
    const chars = frame.type === "output" ? frame.data.length : 0;
    if (viewer.state === "syncing") {
      // Counted now: a viewer whose snapshot is slow still holds the pty back instead of the queue growing.
      viewer.queued.push(frame);
      flow.sent(key, chars);
      return;
    }
    if (frame.type === "output" && flow.isStalled(key)) {
      viewer.missedOutput = true;
      return;
    }
    flow.sent(key, chars);
    this.send(viewer, frame);
  }

  /** Replays the mirror to a viewer: one snapshot of exactly chunks <= seq, then what came meanwhile. */
  private async sync(viewer: Viewer): Promise<void> {
    viewer.state = "syncing";
    viewer.queued = [];
    viewer.missedOutput = false;
    const seq = this.deps.seq();
    // Queued on the mirror behind chunk `seq` and taken before chunk seq + 1 is parsed (terminal-mirror.ts).
    const snapshot = await this.deps.snapshot();
    if (this.viewers.get(viewer.id) !== viewer || viewer.state !== "syncing") return; // detached or replaced
    viewer.state = "live";
    const queued = viewer.queued;
    viewer.queued = [];
    this.deps.flow.sentReplay(viewerKey(viewer.id), snapshot.data.length);
    const sizedFor = this.deps.sizedFor();
    this.send(viewer, {
      type: "replay",
      seq,
      data: snapshot.data,
      cols: snapshot.cols,
      rows: snapshot.rows,
      ...(sizedFor ? { sizedFor } : {}),
    });
    for (const frame of queued) {
      if (this.viewers.get(viewer.id) !== viewer) return;
      this.send(viewer, frame);
    }
    this.deps.paced();
  }

  /**
   * A viewer whose replay could not be made would wait for it forever, its output queued: it is told,
   * then let go (its page shows why and stops sending keys), and may attach again.
   */
  private replayFailed(viewer: Viewer, error: unknown): void {
    if (this.viewers.get(viewer.id) !== viewer) return; // closed, left or replaced meanwhile
    this.deps.log(`Could not replay the terminal to viewer ${viewer.id}, detached it: ${String(error)}`);
    this.send(viewer, { type: "detached", seq: this.deps.seq() });
    if (this.viewers.get(viewer.id) === viewer) this.deps.letGo(viewer.id);
  }

  private send(viewer: Viewer, frame: TerminalFrame): void {
    try {
      viewer.send(frame);
    } catch (error) {
      this.deps.log(`Viewer ${viewer.id} could not be sent terminal output and was detached: ${String(error)}`);
      if (this.viewers.get(viewer.id) === viewer) this.deps.letGo(viewer.id);
    }
  }
}
