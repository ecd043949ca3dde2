// Reads of sessions, each reconciling first: every open row is judged by the verdict, and an
// orphan is ended in the same read (with the reason it was ending for, if "ending" was written).
import { gatherFacts } from "./owner-probes.ts";
import { isLiveish, judgeSession, type Verdict } from "./verdict.ts";
import { verdictNotice, type AttachInfo, type SessionStateView, type SessionView } from "./session-view.ts";
import type { SessionRow } from "./session-rows.ts";
import type { AgentDefinition } from "../agents/agent-catalog.ts";
import { tmuxOptions, viewOf, type SessionContext } from "./session-context.ts";
import { dropShutdownNote, endFromNote, readShutdownNote } from "./shutdown-notes.ts";

/** A row and what it is; reads of open rows leave the transcript out (SessionRow). */
export interface JudgedRow<R extends SessionRow = SessionRow> {
  readonly row: R;
  readonly verdict: Verdict;
}

export class Reconciler {
  private stateRead: { promise: Promise<SessionStateView>; changes: number } | undefined;
  /** The state's views of rows read unchanged (session-rows.ts RowMemo), with the agents they were named from. */
  private readonly views = new WeakMap<SessionRow, { agents: readonly AgentDefinition[] | null; view: SessionView }>();

  constructor(
    private readonly ctx: SessionContext,
    /** A row this read ended (a tmux session's browser viewer is closed with it). */
    private readonly onEndedOnRead: (sessionId: string) => void = () => undefined,
  ) {}

  /** Judges every open row; orphans are ended in the same read. */
  async reconcileOpen(): Promise<JudgedRow[]> {
    const rows = await this.ctx.store.open();
    if (rows.length === 0) return [];
    const now = await this.ctx.store.dbNow();
    return Promise.all(rows.map((row) => this.reconcileRow(row, now)));
  }

  /**
   * `now` is the database's clock: every host judges a lease against the clock that stamped it.
   * `again`: this row was read after an end that did not land (see below), judged once more at most.
   */
  async reconcileRow<R extends SessionRow>(row: R, now?: Date, again = false): Promise<JudgedRow<R>> {
    const { ctx } = this;
    const facts = await gatherFacts(row as Parameters<typeof gatherFacts>[0], ctx.self, ctx.registry, {
      // The owner's lease as it wrote it; rows from before it was written: this server's.
      leaseMs: row.leaseMs ?? ctx.settings.STUDYLOOP_LEASE_SECONDS * 1000,
      now: now ?? (await ctx.store.dbNow()),
      tmux: tmuxOptions(ctx),
    });
    // The verdict knows starting, live and ended; an "ending" row is judged like a live one.
    const ownership = { ...row, status: row.status === "ending" ? "live" : row.status } as Parameters<typeof judgeSession>[0];
    const verdict = judgeSession(ownership, facts);
    if (verdict.kind === "unknown") ctx.log(`Session ${row.id}: owner unknown (${verdict.probe}: ${verdict.error}); treated as live.`);
    if (verdict.kind !== "orphaned") return { row, verdict };
    // Its owner died after writing "ending": the end it had begun stands (the learner's End, say).
    // One whose End was asked from another host and never carried out ended by the learner too.
    const reason = row.status === "ending" && row.endReason ? row.endReason : row.endRequestedAt ? "ended-by-learner" : verdict.endReason;
    const detail = row.status === "ending" ? row.endDetail : verdict.cause;
    // Its server stopped it but could not write so (a held lock): the end it left here stands.
    const note = reason === verdict.endReason ? readShutdownNote(ctx.dataDir, row.id) : null;
    const end = endFromNote(row, note, { reason, endedAt: verdict.endedAt, detail });
    // Conditional on the owner and generation as read, and bumping the generation: of several
    // readers (on several hosts) exactly one ends it, and the old owner's late writes are refused.
    const ended = await ctx.store.end(
      row,
      { ...end, exitCode: row.exitCode, takeover: true, ...(verdict.lapsed ? { onlyIfHeartbeat: row.heartbeatAt } : {}) },
      row,
    );
    if (note) dropShutdownNote(ctx.dataDir, row.id);
    // A full row (transcript included) is a SessionRow and a StudySession alike.
    const fresh = ((await ctx.store.byId(row.id)) ?? row) as R;
    if (ended) {
      ctx.log(`Session ${row.id} ended on read: ${end.reason} (${verdict.cause}).`);
      this.onEndedOnRead(row.id);
      ctx.events.sessionEnded(row.id, viewOf(ctx, fresh));
    }
    // Not ended by this read and still open: its owner renewed the lease since it was read (a stall
    // of the owner, or of this reader between its read and its clock). Judged again as it is now.
    if (!ended && fresh.endedAt === null && !again) return this.reconcileRow(fresh, undefined, true);
    return { row: fresh, verdict: { kind: "ended", rule: "ended" } as Verdict };
  }

  /**
   * The current state. Concurrent reads share one database read (pages, their pollers and the API
   * ask at once), unless something changed after that read began: a reader never gets a state
   * older than its own request and this server's last write (docs/performance.md).
   */
  state(): Promise<SessionStateView> {
    const shared = this.stateRead;
    const changes = this.ctx.events.changeCount;
    if (shared && shared.changes === changes) return shared.promise;
    const promise = this.readState().finally(() => {
      if (this.stateRead?.promise === promise) this.stateRead = undefined;
    });
    this.stateRead = { promise, changes };
    return promise;
  }

  private async readState(): Promise<SessionStateView> {
    const { ctx } = this;
    const judged = await this.reconcileOpen();
    const current = judged.find((j) => isLiveish(j.verdict));
    const lastEndedRow = await ctx.store.lastEnded();
    const lastEnded = lastEndedRow ? this.viewOf(lastEndedRow) : null;
    if (!current) return { state: lastEnded ? "ended" : "idle", session: null, verdict: null, attach: null, lastEnded };
    const session = this.viewOf(current.row);
    return {
      state: current.verdict.kind === "starting" ? "starting" : session.status === "ending" ? "ending" : "focus",
      session,
      verdict: { kind: current.verdict.kind, rule: current.verdict.rule, notice: verdictNotice(current.verdict, session) },
      attach: session.status === "ending" ? null : this.attachFor(current),
      lastEnded,
    };
  }

  /**
   * viewOf, kept while the row object is the same (its stored values unchanged) and, for an ended row,
   * whose explanation names its agent, while the config's agents are (AgentRegistry keeps them until
   * the file changes). A view depends on nothing else: no clock, only the row and fixed settings.
   */
  private viewOf(row: SessionRow): SessionView {
    const agents = row.endedAt ? this.ctx.agents.definitions() : null;
    const kept = this.views.get(row);
    if (kept && kept.agents === agents) return kept.view;
    const view = viewOf(this.ctx, row);
    this.views.set(row, { agents, view });
    return view;
  }

  /** How a page here attaches: to the live transport of this server, or through tmux on this host. */
  private attachFor(current: JudgedRow): AttachInfo | null {
    const { row, verdict } = current;
    if (verdict.kind === "live-here") {
      const live = this.ctx.registry.get(row.id);
      if (!live || (live.phase !== "live" && live.phase !== "starting")) return null;
      return live.transport.view === "chat"
        ? { transport: "acp", sessionId: row.id, event: "acp:attach" }
        : { transport: "pty", sessionId: row.id, event: "terminal:attach" };
    }
    const viaTmux = verdict.kind === "live-elsewhere" && verdict.via === "tmux" && row.ownerHost === this.ctx.self.host;
    return viaTmux ? { transport: "tmux", sessionId: row.id, event: "terminal:attach" } : null;
  }

  /** One session, reconciled if it is still open. */
  async session(id: string): Promise<{ view: SessionView; verdict: Verdict | null; transcript: string | null } | null> {
    const row = await this.ctx.store.byId(id);
    if (!row) return null;
    const judged = row.endedAt ? { row, verdict: null } : await this.reconcileRow(row);
    return { view: viewOf(this.ctx, judged.row), verdict: judged.verdict, transcript: judged.row.transcript };
  }
}
