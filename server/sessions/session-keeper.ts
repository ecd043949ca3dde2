// Keeps the sessions this server runs honest: the heartbeat, the grace and never-attached rules
// (paused sessions are kept, session-lifecycle.ts), transcript checkpoints, and ending. Ending is
// durable: "ending" is written before the agent is stopped, so an End that fails part-way is
// finished by a retry, by this keeper's next tick, or (if this server dies) by the next reader's
// verdict with the same reason. Shutdown is bounded whatever the database does.
import { isDbUnavailable, type RetryOptions } from "../db/db-faults.ts";
import { capturePane, killSession } from "../transports/tmux/tmux-control.ts";
import type { LiveSession } from "./live-registry.ts";
import { graceWarning, keepDecision, nextPhase } from "./session-lifecycle.ts";
import { SessionError } from "./session-errors.ts";
import type { SessionView } from "./session-view.ts";
import { tmuxOptions, viewOf, type SessionContext } from "./session-context.ts";
import type { Reconciler } from "./reconciler.ts";
import { FIRST_GENERATION, type Fence, type Owner } from "./session-store.ts";
import { isLiveish } from "./verdict.ts";

const TICK_MS = 1_000;
/**
 * A server stops a session this long before its lease (counted from when the last renewal that
 * succeeded was sent) runs out: by then no other host can have ended it yet (they count from the
 * moment the database wrote that heartbeat, which is later), so two hosts never both run it.
 */
export const LEASE_MARGIN_MS = TICK_MS;
/** A clean stop gives the live sessions this long to save and end; then the agents are killed anyway. */
export const SHUTDOWN_BUDGET_MS = 5_000;

export interface EndHow {
  readonly reason: string;
  readonly exitCode?: number;
  readonly detail?: string;
  /**
   * End even if "ending" cannot be written (the agent is already gone, or this server is stopping):
   * the row then says live until the keeper's retry or the next start's verdict ends it.
   */
  readonly force?: boolean;
  /**
   * Stop the agent without writing "ending" first: the database cannot be reached (the lease is
   * lost), so the agent must stop now whatever the database does; the final write is retried.
   */
  readonly offline?: boolean;
}

/** What End did: ended here (or in tmux), or asked the server that runs the session to end it. */
export interface EndOutcome {
  readonly session: SessionView;
  /** Set when another server runs the session: it ends it within a heartbeat. */
  readonly endingOn: { readonly host: string | null; readonly url: string | null } | null;
}

export class SessionKeeper {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => Date;
  private lastHeartbeat = 0;
  private stopped = false;
  private ticking = false;
  /** Sessions already warned that their grace window runs out (once per window; see warnGrace). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly reconciler: Reconciler,
    /** Closes the browser viewer of a tmux session (viewers.ts). */
    private readonly closeTmuxViewer: (sessionId: string) => void,
  ) {
    this.now = ctx.now;
    ctx.events.on("study", (event) => {
      const live = ctx.registry.get(event.sessionId);
      if (live && event.kind === "resumed") live.resumedAt = event.at.getTime();
    });
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  private fence(live: LiveSession): Fence {
    return { instanceId: this.ctx.instanceId, generation: live.generation };
  }

  private owner(live: LiveSession): Owner {
    return { ownerInstance: this.ctx.instanceId, ownerPid: this.ctx.self.pid, muxSession: null, ownerGeneration: live.generation };
  }

  /** Ends the open session, wherever it runs: the learner can always end. */
  async end(reason = "ended-by-learner"): Promise<EndOutcome> {
    const { ctx } = this;
    const judged = await this.reconciler.reconcileOpen();
    const current = judged.find((j) => j.row.endedAt === null);
    if (!current) throw new SessionError("nothing-to-end", "No active session: there is nothing to end.");
    const verdict = current.verdict;
    if (verdict.kind === "live-elsewhere" && verdict.via === "server") {
      // Another server runs the agent: ask it (the row carries the request); it ends the session on
      // its next beat, as if End was pressed there, and keeps its transcript.
      const by = `${ctx.self.host} (${ctx.ownerUrl || "command line"})`;
      const asked = await ctx.store.requestEnd(current.row.id, by);
      ctx.log(`Session ${current.row.id}: End asked of ${verdict.ownerHost ?? "its server"} (${verdict.ownerUrl ?? "no address"}).`);
      ctx.events.emit("changed");
      const row = (await ctx.store.byId(current.row.id)) ?? current.row;
      return { session: viewOf(ctx, row), endingOn: asked ? { host: verdict.ownerHost, url: verdict.ownerUrl } : null };
    }
    const live = ctx.registry.get(current.row.id);
    if (live) {
      await this.endLive(live, { reason });
    } else if (current.row.transport === "tmux") {
      // Row first (with the summary), then close tmux: its wrapper then finds the row ended.
      const name = current.row.muxSession;
      const transcript = name ? capturePane(`=${name}:`, tmuxOptions(ctx)) : null;
      await ctx.store.end(current.row, { reason, endedAt: this.now(), transcript });
      if (name) killSession(name, tmuxOptions(ctx));
      this.closeTmuxViewer(current.row.id);
      ctx.events.emit("changed");
    } else {
      // Its owner cannot be judged (unknown) or is starting elsewhere: the learner can still end it.
      // A takeover: the generation is bumped, so a live owner's next heartbeat fails and it stops
      // the agent; nothing it writes afterwards lands on this row.
      await ctx.store.end(current.row, { reason, endedAt: await ctx.store.dbNow(), takeover: isLiveish(verdict) });
      ctx.events.emit("changed");
    }
    const row = await ctx.store.byId(current.row.id);
    return { session: viewOf(ctx, row ?? current.row), endingOn: null };
  }

  /**
   * Ends a session this server runs. Everyone who asks while an end is in flight shares it; a
   * session whose end failed part-way picks up where it stopped. Throws DbUnavailable when the
   * database refused a step (the agent is then untouched if "ending" was not written).
   */
  endLive(live: LiveSession, how: EndHow, retry?: RetryOptions): Promise<void> {
    if (live.ending) return live.ending;
    if (live.phase === "ended") return Promise.resolve();
    const ending = this.runEnd(live, how, retry).finally(() => {
      live.ending = null;
    });
    live.ending = ending;
    return ending;
  }

  private async runEnd(live: LiveSession, how: EndHow, retry?: RetryOptions): Promise<void> {
    const { ctx } = this;
    if (how.offline && (live.phase === "live" || live.phase === "starting")) {
      live.phase = nextPhase(live.phase, "lease-lost") ?? "ending";
    } else if (live.phase === "live" || live.phase === "starting") {
      let open = true;
      try {
        open = await ctx.store.markEnding(
          live.id,
          { reason: how.reason, exitCode: how.exitCode ?? null, detail: how.detail ?? null },
          retry,
          this.fence(live),
        );
      } catch (error) {
        if (!how.force || !isDbUnavailable(error)) throw error;
        ctx.log(`Session ${live.id}: could not write "ending" (${error.message}); ending it anyway (${how.reason}).`);
      }
      if (!open) return this.endedElsewhere(live);
      live.phase = nextPhase(live.phase, "ending-written") ?? "ending";
      ctx.events.emit("changed");
    }
    if (!live.pendingEnd) {
      let transcript: string | null = null;
      try {
        transcript = await live.transport.snapshotTranscript();
      } catch (error) {
        ctx.log(`Session ${live.id}: could not save the transcript: ${String(error)}`);
      }
      if (how.reason !== "agent-exited") live.transport.kill();
      if (how.offline) this.tellPagesOffline(live, how);
      const startupFailure = how.reason === "agent-exited" ? live.transport.startupFailure(transcript) : null;
      const lastLines = how.reason === "agent-exited" || how.reason === "startup-failed" ? live.transport.lastLines(transcript) : [];
      live.pendingEnd = {
        reason: startupFailure ? "startup-failed" : how.reason,
        endedAt: this.now(),
        exitCode: how.exitCode ?? null,
        detail: startupFailure ?? how.detail ?? null,
        transcript,
        lastLines,
      };
    }
    await this.writeEnd(live, retry);
  }

  /** The final write (summary, transcript, reason); then the session leaves this server. */
  private async writeEnd(live: LiveSession, retry?: RetryOptions): Promise<void> {
    const { ctx } = this;
    const write = live.pendingEnd!;
    const row = await ctx.store.byId(live.id);
    if (row && !row.endedAt && !(await ctx.store.end(row, write, this.owner(live), retry)) && write.transcript) {
      // Someone else ended it first (their reason stands); the transcript is still worth keeping,
      // unless another host took the row over (the fence refuses it then).
      await ctx.store.checkpoint(live.id, write.transcript, this.now(), this.fence(live));
    }
    await this.finish(live);
  }

  /**
   * The database is gone, so the page cannot read why its session stopped: it is told directly,
   * from the row as last read, with the reason this server will write once the database is back.
   */
  private tellPagesOffline(live: LiveSession, how: EndHow): void {
    const { ctx } = this;
    if (!live.lastRow) return;
    const endedAt = live.pendingEnd?.endedAt ?? this.now();
    const view = viewOf(ctx, { ...live.lastRow, status: "ended", endedAt, endReason: how.reason, endDetail: how.detail ?? null });
    ctx.events.emit("ended", live.id, view);
    ctx.events.emit("changed");
  }

  /**
   * Stops every session whose lease this server could not renew in time (the database unreachable,
   * or too slow to answer): synchronous, so a pass stuck on the database cannot delay it.
   */
  watchLeases(): void {
    const { ctx } = this;
    const leaseMs = ctx.settings.STUDYLOOP_LEASE_SECONDS * 1000;
    // Real elapsed time (monotonic), not the rules' clock: a lease is the database's, in real seconds.
    const now = performance.now();
    for (const live of ctx.registry.all()) {
      if (live.phase !== "live" || live.ending) continue;
      const silentMs = now - live.leaseRenewedAt;
      if (silentMs < leaseMs - LEASE_MARGIN_MS) continue;
      const seconds = Math.round(silentMs / 1000);
      ctx.log(
        `Session ${live.id}: this server could not renew its lease on the session for ${seconds} s (lease ${leaseMs / 1000} s; the database is unreachable or too slow), so it stopped the agent here: another StudyLoop server may now end the session, and two must never run it.`,
      );
      const detail = `this server (${ctx.self.host}) could not reach the database for ${seconds} s`;
      void this.endLive(live, { reason: "lease-lost", detail, force: true, offline: true }, { deadlineMs: 0 }).catch((error: unknown) =>
        ctx.log(`Session ${live.id}: the agent is stopped; its end is written once the database answers (${String(error)}).`),
      );
    }
  }

  /** Our row was ended by another server or device: stop the agent, keep their reason. */
  private async endedElsewhere(live: LiveSession): Promise<void> {
    try {
      const transcript = await live.transport.snapshotTranscript();
      await this.ctx.store.checkpoint(live.id, transcript, this.now(), this.fence(live));
    } catch (error) {
      this.ctx.log(`Session ${live.id}: could not save the transcript: ${String(error)}`);
    }
    live.transport.kill();
    await this.finish(live);
  }

  private async finish(live: LiveSession): Promise<void> {
    const { ctx } = this;
    live.phase = "ended";
    ctx.registry.remove(live.id);
    await live.transport.flushed();
    live.transport.dispose();
    const row = await ctx.store.byId(live.id).catch(() => null);
    if (row) ctx.events.sessionEnded(live.id, viewOf(ctx, row));
    else ctx.events.emit("changed");
  }

  /** Resolves when no end is in flight (whether it succeeded or not). */
  async settle(): Promise<void> {
    await Promise.all(this.ctx.registry.all().map((live) => live.ending?.catch(() => undefined)));
  }

  /** Finishes every end that a fault interrupted; throws if the database still refuses. */
  async finishPending(): Promise<void> {
    for (const live of this.ctx.registry.all()) {
      if (live.phase === "ending") await this.endLive(live, { reason: live.pendingEnd?.reason ?? "ended-by-learner", force: true });
    }
  }

  /** One pass over the live sessions; each one's fault is logged and retried on the next pass. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    // Before the guard: a pass stuck on an unreachable database must not keep a lost lease running.
    this.watchLeases();
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
    const heartbeatDue = now.getTime() - this.lastHeartbeat >= s.STUDYLOOP_HEARTBEAT_SECONDS * 1000;
    if (heartbeatDue) this.lastHeartbeat = now.getTime();
    const live = ctx.registry.all();
    for (const id of this.warned) if (!ctx.registry.has(id)) this.warned.delete(id);
    // A start can take a while (an ACP handshake, 45 s at most): its "starting" row keeps its lease,
    // or another host would judge it lapsed and end it under the agent being started.
    if (heartbeatDue) await this.renewReservations();
    if (live.length === 0) return;
    // The pause lives on the row (the focus timer writes it): read once per pass.
    const rows = new Map((await ctx.store.open().catch(() => [])).map((row) => [row.id, row]));
    for (const session of live) {
      try {
        if (session.phase === "ending") {
          // One attempt per pass: a held lock must not make every pass wait out the retries.
          await this.endLive(session, { reason: session.pendingEnd?.reason ?? "ended-by-learner", force: true }, { deadlineMs: 0 });
          continue;
        }
        if (session.phase !== "live" || session.ending) continue;
        const row = rows.get(session.id);
        if (row) session.lastRow = row;
        if (row?.endRequestedAt) {
          // End pressed on another host: carried out here, as if it was pressed here.
          ctx.log(`Session ${session.id}: ending it as asked from ${row.endRequestedBy ?? "another server"}.`);
          await this.endLive(session, { reason: "ended-by-learner", detail: `ended from ${row.endRequestedBy ?? "another server"}` });
          continue;
        }
        if (heartbeatDue) {
          const sentAt = performance.now();
          if (!(await ctx.store.heartbeat(session.id, this.fence(session)))) {
            ctx.log(`Session ${session.id}: the row was ended or taken over by another server; stopping the agent here.`);
            await this.endedElsewhere(session);
            continue;
          }
          session.leaseRenewedAt = Math.max(session.leaseRenewedAt, sentAt);
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
          this.warned.delete(session.id);
          await this.endLive(session, { reason: decision.reason });
          continue;
        }
        this.warnGrace(session.id, graceWarning(decision, now.getTime(), s.STUDYLOOP_GRACE_WARNING_SECONDS * 1000));
        if (now.getTime() - session.lastCheckpointAt >= s.STUDYLOOP_CHECKPOINT_SECONDS * 1000) await this.checkpoint(session);
      } catch (error) {
        ctx.log(`Session ${session.id}: ${error instanceof Error ? error.message : String(error)} (retried in a moment)`);
      }
    }
  }

  private async renewReservations(): Promise<void> {
    for (const id of this.ctx.registry.reserved()) {
      await this.ctx.store
        .heartbeat(id, { instanceId: this.ctx.instanceId, generation: FIRST_GENERATION })
        .catch((error: unknown) => this.ctx.log(`Session ${id}: the starting session's lease was not renewed (${String(error)}).`));
    }
  }

  /**
   * Says once per grace window that a session nobody watches ends soon (the notifier listens on the
   * bus). A window ends when someone watches again or a pause pushes the end further out: "grace-kept".
   */
  private warnGrace(sessionId: string, endsAt: number | null): void {
    if (endsAt === null) {
      // Watched again, or a pause moved the end out: the warning no longer holds.
      if (this.warned.delete(sessionId)) this.ctx.events.emit("grace-kept", sessionId);
      return;
    }
    if (this.warned.has(sessionId)) return;
    this.warned.add(sessionId);
    this.ctx.events.emit("grace-ending", sessionId, new Date(endsAt));
  }

  private async checkpoint(live: LiveSession): Promise<void> {
    live.lastCheckpointAt = this.now().getTime();
    const seq = live.transport.lastSeq;
    if (seq === live.checkpointSeq) return;
    const transcript = await live.transport.snapshotTranscript();
    // Refused after a takeover: the next heartbeat finds the row gone and stops the agent.
    if (await this.ctx.store.checkpoint(live.id, transcript, this.now(), this.fence(live))) live.checkpointSeq = seq;
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
    const ends = Promise.all(
      sessions.map((live) =>
        this.endLive(live, { reason: live.pendingEnd?.reason ?? "server-shutdown", force: true }, { deadlineMs: 0 }).catch(
          (error: unknown) =>
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
      live.transport.kill();
      live.transport.dispose();
    }
  }
}
