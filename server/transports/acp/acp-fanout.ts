// Sends an ACP conversation to its viewers: a catch-up from the last number a viewer saw (read from
// the store), then every new event, with no gap and no duplicate even when events arrive meanwhile.
import type { AcpEventRecord } from "./acp-events.ts";

type Send = (event: AcpEventRecord) => void;

interface Viewer {
  readonly send: Send;
  /** Events that arrived while the catch-up was being read; flushed after it. */
  pending: AcpEventRecord[] | null;
  lastSent: number;
}

export class AcpFanout {
  private readonly viewers = new Map<string, Viewer>();

  get size(): number {
    return this.viewers.size;
  }

  async attach(viewerId: string, send: Send, sinceSeq: number, load: (afterSeq: number) => Promise<AcpEventRecord[]>): Promise<void> {
    const viewer: Viewer = { send, pending: [], lastSent: sinceSeq };
    this.viewers.set(viewerId, viewer);
    const backlog = await load(sinceSeq);
    for (const event of backlog) this.deliver(viewer, event);
    const pending = viewer.pending ?? [];
    viewer.pending = null;
    for (const event of pending) this.deliver(viewer, event);
  }

  detach(viewerId: string): void {
    this.viewers.delete(viewerId);
  }

  /** A stored event: to every viewer (queued for those still catching up). */
  publish(event: AcpEventRecord): void {
    for (const viewer of this.viewers.values()) {
      if (viewer.pending) viewer.pending.push(event);
      else this.deliver(viewer, event);
    }
  }

  private deliver(viewer: Viewer, event: AcpEventRecord): void {
    if (event.seq <= viewer.lastSent) return;
    viewer.lastSent = event.seq;
    viewer.send(event);
  }
}
