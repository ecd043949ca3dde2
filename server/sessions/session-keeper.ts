// Keeps the sessions this server runs honest, once a second: the lease (lease-keeper.ts: held on the
// lease thread, and watched here), End asked from another host, the grace and never-attached rules
// (paused sessions are kept, session-lifecycle.ts), the grace warning, transcript checkpoints, and
// retrying ends a fault interrupted (session-ender.ts ends). Shutdown is bounded whatever the database does.
import type { LiveSession } from "./live-registry.ts";
import { graceWarning, keepDecision } from "./session-lifecycle.ts";
import type { SessionContext } from "./session-context.ts";
import type { SessionEnder } from "./session-ender.ts";
import { GraceWarnings } from "./grace-warnings.ts";
import { LEASE_CHECK_MS } from "./lease-watch.ts";
import { LeaseKeeper, type LeaseRenewalsFactory } from "./lease-keeper.ts";
import { leaveShutdownNote, shutdownNoteOf } from "./shutdown-notes.ts";

/** One pass over the live sessions: at least as often as the lease is checked. */
const TICK_MS = LEASE_CHECK_MS;
/** A clean stop gives the live sessions this long to save and end; then the agents are killed anyway. */
export const SHUTDOWN_BUDGET_MS = 5_000;

export class SessionKeeper {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => Date;
  private stopped = false;
  private ticking = false;
  private readonly grace: GraceWarnings;
  /** Sessions whose transcript checkpoint is in flight (one at a time each). */
  private readonly checkpointing = new Set<string>();
  readonly leases: LeaseKeeper;

  constructor(
    private readonly ctx: SessionContext,
    private readonly ender: SessionEnder,
    renewals?: LeaseRenewalsFactory,
  ) {
    this.now = ctx.now;
    this.leases = new LeaseKeeper(ctx, ender, renewals);
    this.grace = new GraceWarnings(ctx.events);
    // A session that just went live (or began to start) holds its lease at once, not at the next pass.
    ctx.events.on("changed", () => this.leases.sync());
    ctx.events.on("study", (event) => {
      const live = ctx.registry.get(event.sessionId);
      if (live && event.kind === "resumed") live.resumedAt = event.at.getTime();
    });
  }

  start(): void {
    this.leases.start();
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** One pass over the live sessions; each one's fault is logged and retried on the next pass. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    // Before the guard: a pass stuck on an unreachable database must not keep a lost lease running.
    this.leases.watch();
    this.leases.sync();
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.keepAll();
    } catch (error) {
      this.ctx.log(`Background check failed: ${String(error)}`);
    } finally {
      this.ticking = false;
    }
  }

  private async keepAll(): Promise<void> {
    const { ctx } = this;
    const now = this.now();
    const s = ctx.settings;
    const live = ctx.registry.all();
    this.grace.keepOnly((id) => ctx.registry.has(id));
    if (live.length === 0) return;
    // The pause lives on the row (the focus timer writes it): read once per pass.
    const rows = new Map((await ctx.store.open().catch(() => [])).map((row) => [row.id, row]));
    for (const session of live) {
      try {
        if (session.phase === "ending") {
          // One attempt per pass: a held lock must not make every pass wait out the retries.
          await this.ender.endLive(session, { reason: session.pendingEnd?.reason ?? "ended-by-learner", force: true }, { deadlineMs: 0 });
          continue;
        }
        if (session.phase !== "live" || session.ending) continue;
        const row = rows.get(session.id);
        if (row) session.lastRow = row;
        if (row?.endRequestedAt) {
          // End pressed on another host: carried out here, as if it was pressed here.
          ctx.log(`Session ${session.id}: ending it as asked from ${row.endRequestedBy ?? "another server"}.`);
          await this.ender.endLive(session, { reason: "ended-by-learner", detail: `ended from ${row.endRequestedBy ?? "another server"}` });
          continue;
        }
        const decision = keepDecision({
          now: now.getTime(),
          viewers: session.viewers.size,
          attachedOnce: session.attachedOnce,
          startedAt: session.startedAt.getTime(),
          lastViewerLeftAt: session.lastViewerLeftAt?.getTime() ?? null,
          pausedAt: rows.get(session.id)?.pausedAt?.getTime() ?? null,
          resumedAt: session.resumedAt,
          graceMs: s.STUDYLOOP_GRACE_SECONDS * 1000,
          neverAttachedMs: s.STUDYLOOP_NEVER_ATTACHED_SECONDS * 1000,
          pauseKeepMs: s.STUDYLOOP_PAUSE_KEEP_SECONDS * 1000,
        });
        if (decision.kind === "end") {
          this.grace.forget(session.id);
          await this.ender.endLive(session, { reason: decision.reason });
          continue;
        }
        this.grace.update(session.id, graceWarning(decision, now.getTime(), s.STUDYLOOP_GRACE_WARNING_SECONDS * 1000));
        if (now.getTime() - session.lastCheckpointAt >= s.STUDYLOOP_CHECKPOINT_SECONDS * 1000) this.startCheckpoint(session);
      } catch (error) {
        ctx.log(`Session ${session.id}: ${error instanceof Error ? error.message : String(error)} (retried in a moment)`);
      }
    }
  }

  /**
   * A checkpoint waits for the mirror's transcript, which under a flood on a busy machine can take
   * longer than a lease: it runs beside the passes, so the heartbeat never waits behind it.
   */
  private startCheckpoint(live: LiveSession): void {
    if (this.checkpointing.has(live.id)) return;
    this.checkpointing.add(live.id);
    void this.checkpoint(live)
      .catch((error: unknown) =>
        this.ctx.log(
          `Session ${live.id}: ${error instanceof Error ? error.message : String(error)} (the checkpoint is retried in a moment)`,
        ),
      )
      .finally(() => this.checkpointing.delete(live.id));
  }

  private async checkpoint(live: LiveSession): Promise<void> {
    live.lastCheckpointAt = this.now().getTime();
    const seq = live.transport.lastSeq;
    if (seq === live.checkpointSeq) return;
    const transcript = await live.transport.snapshotTranscript();
    // An end began meanwhile: it saves a newer transcript, which this older one must not overwrite.
    if (live.phase !== "live" || live.ending) return;
    // Refused after a takeover: the next heartbeat finds the row gone and stops the agent.
    if (await this.ctx.store.checkpoint(live.id, transcript, this.now(), this.ender.fence(live))) live.checkpointSeq = seq;
  }

  /**
   * Clean stop: every live session ends as server-shutdown after its transcript is saved, within
   * SHUTDOWN_BUDGET_MS whatever the database does (one attempt per write, no lock retries). What
   * could not be written is judged at the next start by the verdict; no agent outlives the server.
   */
  async shutdown(budgetMs = SHUTDOWN_BUDGET_MS): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const sessions = this.ctx.registry.all();
    // Renewals stop with the passes: a session this server ends needs none, and one it cannot end in
    // time is judged at the next start (its agent is stopped below either way).
    const leasesClosed = this.leases.close();
    const ends = Promise.all(
      sessions.map((live) =>
        this.ender
          .endLive(live, { reason: live.pendingEnd?.reason ?? "server-shutdown", force: true }, { deadlineMs: 0 })
          .catch((error: unknown) =>
            this.ctx.log(
              `Session ${live.id}: not ended cleanly (${error instanceof Error ? error.message : String(error)}); the next start ends it.`,
            ),
          ),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([ends, budget]);
    clearTimeout(timer);
    for (const live of sessions) {
      if (live.phase === "ended") continue;
      // Its end is not in the database (a held lock): the next start reads it from here.
      leaveShutdownNote(this.ctx.dataDir, shutdownNoteOf(live, this.ctx.instanceId, this.now()), this.ctx.log);
      live.transport.kill();
      live.transport.dispose();
    }
    await leasesClosed;
  }
}
