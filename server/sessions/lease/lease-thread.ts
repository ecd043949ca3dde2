// The server's leases, renewed on a thread of their own (lease-worker.ts) with their own database
// connection: a busy or blocked main thread cannot starve a renewal (DESIGN.md invariant 7). A worker
// that dies is started again (a renewal missed meanwhile is what the margin is for).
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { DatabaseTarget } from "../../db/database-target.ts";
import { workerSource } from "../../threads/worker-source.ts";
import type { LeaseFence, LeaseReply, LeaseRequest, LeaseWorkerData } from "./lease-protocol.ts";
import type { LeaseListener, LeaseRenewals } from "./lease-renewals.ts";

export const LeaseThreadLimits = {
  /** The worker's heap, MB: a few statements and a map of held leases. */
  OLD_GENERATION_MB: 32,
  /** A dead worker is started again at most this often, ms (a worker that cannot start must not spin). */
  RESTART_AFTER_MS: 1_000,
} as const;

export interface LeaseThreadOptions {
  /** The database, reached on the thread's own connection. */
  readonly target: DatabaseTarget;
  readonly heartbeatMs: number;
  /** See LeaseWorkerData.touchWithinMs. */
  readonly touchWithinMs: number;
  readonly listener: LeaseListener;
  readonly log: (line: string) => void;
}

function leaseWorkerSource(): string {
  return workerSource(new URL("./lease-worker.ts", import.meta.url), new URL("./lease-worker.cjs", import.meta.url));
}

export class LeaseThread implements LeaseRenewals {
  private worker: Worker | null = null;
  private readonly leases = new Map<string, { fence: LeaseFence; leaseFile: string | null }>();
  private closed = false;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: LeaseThreadOptions) {
    this.start();
  }

  hold(id: string, fence: LeaseFence, leaseFile: string | null): void {
    const known = this.leases.get(id);
    if (known && known.fence.generation === fence.generation && known.fence.instanceId === fence.instanceId) return;
    this.leases.set(id, { fence, leaseFile });
    this.send({ type: "hold", id, fence, leaseFile });
  }

  release(id: string): void {
    if (!this.leases.delete(id)) return;
    this.send({ type: "release", id });
  }

  held(): string[] {
    return [...this.leases.keys()];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const stopped = new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.on("message", (reply: LeaseReply) => reply.type === "stopped" && resolve());
    });
    worker.postMessage({ type: "stop" } satisfies LeaseRequest);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    await worker.terminate();
  }

  private start(): void {
    const require = createRequire(import.meta.url);
    const workerData: LeaseWorkerData = {
      target: this.options.target,
      heartbeatMs: this.options.heartbeatMs,
      touchWithinMs: this.options.touchWithinMs,
      modules: { sqlite: require.resolve("better-sqlite3"), pg: require.resolve("pg") },
    };
    const worker = new Worker(leaseWorkerSource(), {
      eval: true,
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: LeaseThreadLimits.OLD_GENERATION_MB },
    });
    // The thread must not keep a server (or a test) alive on its own.
    worker.unref();
    this.worker = worker;
    worker.on("message", (reply: LeaseReply) => this.handle(reply));
    worker.on("error", (error) => this.options.log(`The lease thread failed: ${error.message}`));
    worker.on("exit", () => {
      if (this.closed || this.worker !== worker) return;
      this.worker = null;
      this.options.log("The lease thread stopped; starting it again.");
      this.restartTimer = setTimeout(() => this.restart(), LeaseThreadLimits.RESTART_AFTER_MS);
      this.restartTimer.unref();
    });
  }

  private restart(): void {
    if (this.closed) return;
    this.start();
    for (const [id, { fence, leaseFile }] of this.leases) this.send({ type: "hold", id, fence, leaseFile });
  }

  private send(request: LeaseRequest): void {
    this.worker?.postMessage(request);
  }

  private handle(reply: LeaseReply): void {
    const { listener } = this.options;
    switch (reply.type) {
      case "renewed":
        // The worker's clock is the epoch; this thread's performance.now() counts from its own origin.
        listener.renewed(reply.id, reply.generation, reply.sentAt - performance.timeOrigin);
        break;
      case "lost":
        if (this.leases.get(reply.id)?.fence.generation === reply.generation) this.leases.delete(reply.id);
        listener.lost(reply.id, reply.generation);
        break;
      case "failed":
        listener.failed(reply.id, reply.error);
        break;
      case "stopped":
        break;
    }
  }
}
