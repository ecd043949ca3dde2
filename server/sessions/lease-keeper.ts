// The leases of the sessions this server runs: held on the lease thread while a session is this
// server's (lease/lease-thread.ts renews them there, every heartbeat, whatever this thread is doing),
// and watched here. A lease found near its end (lease-watch.ts) is renewed once more, fenced, before
// anything is stopped: after a stall of this thread the session goes on if the lease is still ours;
// the agent is stopped only when the fence shows another server took the session over, or the
// database cannot be reached (DESIGN.md invariant 7).
import type { LiveSession } from "./live-registry.ts";
import type { SessionContext } from "./session-context.ts";
import type { SessionEnder } from "./session-ender.ts";
import { FIRST_GENERATION, type SessionStore } from "./session-store.ts";
import { lapsedLeases, leaseMarginMs } from "./lease-watch.ts";
import type { LeaseListener, LeaseRenewals } from "./lease/lease-renewals.ts";
import { StoreRenewals } from "./lease/store-renewals.ts";

/** What renewals are made with: who hears of them, the store, and the beat. */
export interface LeaseRenewalsSetup {
  readonly listener: LeaseListener;
  readonly store: SessionStore;
  readonly heartbeatMs: number;
  /** See LeaseWorkerData.touchWithinMs: half the margin. */
  readonly touchWithinMs: number;
}

/** Makes the renewals of a server (the lease thread) or of a process without one (the store's). */
export type LeaseRenewalsFactory = (setup: LeaseRenewalsSetup) => LeaseRenewals;

export class LeaseKeeper {
  private renewals: LeaseRenewals | null = null;
  private closed = false;
  /** Sessions whose fenced renewal after a lapse is in flight. */
  private readonly confirming = new Set<string>();
  /** Sessions whose renewals fail now, with when the first failure was seen (for one log line per outage). */
  private readonly failing = new Map<string, number>();
  private readonly heartbeatMs: number;
  private readonly leaseMs: number;
  private readonly marginMs: number;

  constructor(
    private readonly ctx: SessionContext,
    private readonly ender: SessionEnder,
    private readonly makeRenewals: LeaseRenewalsFactory | undefined,
    /** The lease file an agent's supervisor watches, if it has one. */
    private readonly leaseFile: (live: LiveSession) => string | null = () => null,
  ) {
    this.heartbeatMs = ctx.settings.STUDYLOOP_HEARTBEAT_SECONDS * 1000;
    this.leaseMs = ctx.settings.STUDYLOOP_LEASE_SECONDS * 1000;
    this.marginMs = leaseMarginMs(this.heartbeatMs);
  }

  /** A supervisor stops its agent when told of no renewal for this long, ms. */
  get agentLeaseMs(): number {
    return this.leaseMs - this.marginMs;
  }

  start(): void {
    if (this.renewals || this.closed) return;
    const listener: LeaseListener = {
      renewed: (id, generation, sentAt) => this.renewed(id, generation, sentAt),
      lost: (id, generation) => this.lost(id, generation),
      failed: (id, error) => this.failed(id, error),
    };
    const setup = { listener, store: this.ctx.store, heartbeatMs: this.heartbeatMs, touchWithinMs: this.marginMs / 2 };
    this.renewals = this.makeRenewals ? this.makeRenewals(setup) : new StoreRenewals(setup);
  }

  /**
   * Holds the lease of every session this server runs or is starting, and lets go of the rest. Each
   * pass: a session that went live holds its lease within a second of its first heartbeat.
   */
  sync(): void {
    this.start();
    const { renewals, ctx } = this;
    if (!renewals) return;
    const keep = new Set<string>();
    for (const live of ctx.registry.all()) {
      if (live.phase !== "live" || live.ending) continue;
      keep.add(live.id);
      renewals.hold(live.id, this.ender.fence(live), this.leaseFile(live));
    }
    // A start can take a while (an ACP handshake, 45 s at most): its "starting" row keeps its lease,
    // or another host would judge it lapsed and end it under the agent being started.
    for (const id of ctx.registry.reserved()) {
      keep.add(id);
      renewals.hold(id, { instanceId: ctx.instanceId, generation: FIRST_GENERATION }, null);
    }
    for (const id of renewals.held()) if (!keep.has(id)) renewals.release(id);
    for (const id of this.failing.keys()) if (!keep.has(id)) this.failing.delete(id);
  }

  /**
   * Looks at every live session whose lease is near its end. Synchronous and first in each pass: a
   * pass stuck on the database cannot delay it.
   */
  watch(): void {
    const lives = this.ctx.registry.all();
    const holders = lives
      .filter((live) => !this.confirming.has(live.id))
      .map((live) => ({ id: live.id, phase: live.phase, ending: live.ending !== null, leaseRenewedAt: live.leaseRenewedAt }));
    for (const { id, silentMs } of lapsedLeases(holders, performance.now(), this.leaseMs, this.marginMs)) {
      const live = lives.find((l) => l.id === id)!;
      this.confirming.add(id);
      void this.confirm(live, silentMs).finally(() => this.confirming.delete(id));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.renewals?.close();
    this.renewals = null;
  }

  /** One fenced renewal from this thread, bounded by half the margin: its answer decides. */
  private async confirm(live: LiveSession, silentMs: number): Promise<void> {
    const { ctx } = this;
    const seconds = Math.round(silentMs / 1000);
    const sentAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.marginMs / 2)));
    let answer: boolean | "late" | Error;
    try {
      answer = await Promise.race([ctx.store.heartbeat(live.id, this.ender.fence(live)), late]);
    } catch (error) {
      answer = error instanceof Error ? error : new Error(String(error));
    } finally {
      clearTimeout(timer);
    }
    if (live.phase !== "live" || live.ending) return;
    if (answer === true) {
      live.leaseRenewedAt = Math.max(live.leaseRenewedAt, sentAt);
      ctx.log(
        `Session ${live.id}: no renewal of its lease was seen for ${seconds} s; it is still this server's (renewed now), so it goes on.`,
      );
      return;
    }
    if (answer === false) {
      ctx.log(`Session ${live.id}: another server ended or took over the session while this one was held up; stopping the agent here.`);
      await this.ender.endedElsewhere(live);
      return;
    }
    const why = answer === "late" ? "the database did not answer in time" : answer.message;
    ctx.log(
      `Session ${live.id}: this server could not renew its lease on the session for ${seconds} s (lease ${this.leaseMs / 1000} s; ${why}), so it stopped the agent here: another StudyLoop server may now end the session, and two must never run it.`,
    );
    const detail = `this server (${ctx.self.host}) could not reach the database for ${seconds} s`;
    await this.ender
      .endLive(live, { reason: "lease-lost", detail, force: true, offline: true }, { deadlineMs: 0 })
      .catch((error: unknown) =>
        ctx.log(`Session ${live.id}: the agent is stopped; its end is written once the database answers (${String(error)}).`),
      );
  }

  private renewed(id: string, generation: number, sentAt: number): void {
    const live = this.ctx.registry.get(id);
    if (!live || live.generation !== generation) return;
    live.leaseRenewedAt = Math.max(live.leaseRenewedAt, sentAt);
    const since = this.failing.get(id);
    if (since !== undefined) {
      this.failing.delete(id);
      this.ctx.log(`Session ${id}: its lease is renewed again (after ${Math.round((performance.now() - since) / 1000)} s of failures).`);
    }
  }

  private lost(id: string, generation: number): void {
    const live = this.ctx.registry.get(id);
    if (!live || live.generation !== generation || live.phase !== "live" || live.ending) return;
    this.ctx.log(`Session ${id}: the row was ended or taken over by another server; stopping the agent here.`);
    void this.ender.endedElsewhere(live).catch((error: unknown) => this.ctx.log(`Session ${id}: ${String(error)}`));
  }

  private failed(id: string, error: string): void {
    // One line when an outage starts; the lapse (or the recovery) says the rest.
    if (this.failing.has(id)) return;
    this.failing.set(id, performance.now());
    this.ctx.log(`Session ${id}: its lease could not be renewed (${error}); retrying every ${this.heartbeatMs / 1000} s.`);
  }
}
