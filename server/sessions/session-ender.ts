// Ends sessions: End pressed (wherever the session runs), an agent that exited, a rule of the keeper,
// a lost lease, shutdown. Ending is durable: "ending" is written before the agent is stopped, so an
// End that fails part-way is finished by a retry, by the keeper's next pass, or (if this server dies)
// by the next reader's verdict with the same reason. One end per session is in flight at a time.
import { isDbUnavailable, type RetryOptions } from "../db/db-faults.ts";
import { capturePane, killSession } from "../transports/tmux/tmux-control.ts";
import type { LiveSession } from "./live-registry.ts";
import { nextPhase } from "./session-lifecycle.ts";
import { SessionError } from "./session-errors.ts";
import type { SessionView } from "./session-view.ts";
import { tmuxOptions, viewOf, type SessionContext } from "./session-context.ts";
import type { Reconciler } from "./reconciler.ts";
import type { Fence } from "./session-store.ts";
import type { Owner } from "./session-end-write.ts";
import { isLiveish } from "./verdict.ts";

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

export class SessionEnder {
  private readonly now: () => Date;

  constructor(
    private readonly ctx: SessionContext,
    private readonly reconciler: Reconciler,
    /** Closes the browser viewer of a tmux session (viewers.ts). */
    private readonly closeTmuxViewer: (sessionId: string) => void,
  ) {
    this.now = ctx.now;
  }

  fence(live: LiveSession): Fence {
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

  /** Our row was ended by another server or device: stop the agent, keep their reason. */
  async endedElsewhere(live: LiveSession): Promise<void> {
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
}
