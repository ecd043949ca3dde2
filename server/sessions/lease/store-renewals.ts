// Leases renewed on this thread through the session store: for a process that holds no lease of its
// own but runs the keeper (tests with an injected database). The server uses the lease thread.
import type { SessionStore } from "../session-store.ts";
import type { LeaseFence, LeaseListener, LeaseRenewals } from "./lease-renewals.ts";

export class StoreRenewals implements LeaseRenewals {
  private readonly leases = new Map<string, LeaseFence>();
  private readonly timer: NodeJS.Timeout;
  private running = false;
  private readonly inFlight = new Set<Promise<void>>();

  private readonly store: SessionStore;
  private readonly listener: LeaseListener;

  constructor(setup: { readonly store: SessionStore; readonly heartbeatMs: number; readonly listener: LeaseListener }) {
    this.store = setup.store;
    this.listener = setup.listener;
    this.timer = setInterval(() => void this.renewAll(), setup.heartbeatMs);
    this.timer.unref();
  }

  hold(id: string, fence: LeaseFence): void {
    const known = this.leases.get(id);
    if (known?.generation === fence.generation && known.instanceId === fence.instanceId) return;
    this.leases.set(id, fence);
    void this.renew(id, fence);
  }

  release(id: string): void {
    this.leases.delete(id);
  }

  held(): string[] {
    return [...this.leases.keys()];
  }

  /** Stops renewing; resolves once no renewal is in flight. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.leases.clear();
    await Promise.all([...this.inFlight]);
  }

  /** One renewal of every lease held, now (tests: a heartbeat without waiting for one). */
  async renewAll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const [id, fence] of [...this.leases]) await this.renew(id, fence);
    } finally {
      this.running = false;
    }
  }

  private renew(id: string, fence: LeaseFence): Promise<void> {
    const renewal = this.renewOnce(id, fence).finally(() => this.inFlight.delete(renewal));
    this.inFlight.add(renewal);
    return renewal;
  }

  private async renewOnce(id: string, fence: LeaseFence): Promise<void> {
    const sentAt = performance.now();
    try {
      const committed = await this.store.heartbeat(id, fence);
      if (this.leases.get(id) !== fence) return;
      if (committed) this.listener.renewed(id, fence.generation, sentAt);
      else {
        this.leases.delete(id);
        this.listener.lost(id, fence.generation);
      }
    } catch (error) {
      this.listener.failed(id, error instanceof Error ? error.message : String(error));
    }
  }
}
