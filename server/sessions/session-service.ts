// The session core's facade: composes the parts (reconciler, starter, keeper, viewers, store) and
// offers the methods pages, route handlers, sockets and the CLI call. No logic of its own beyond
// "Continue this session", which is a start with a continuation.
import type { Db, ReadConnection } from "../db/client.ts";
import type { Settings } from "../config/settings.ts";
import type { AgentRegistry } from "../agents/agent-registry.ts";
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { TerminalSession } from "../transports/pty/terminal-session.ts";
import type { ScreenPreview } from "../transports/pty/screen-preview.ts";
import type { AcpSession } from "../transports/acp/acp-session.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { TmuxOptions } from "../transports/tmux/tmux-control.ts";
import { startTransport } from "../transports/live-transports.ts";
import { hashSecret } from "../security/secrets.ts";
import { SessionStore } from "./session-store.ts";
import { SessionEvents, type SessionEventMap } from "./session-events.ts";
import { makeContext, viewContext, type SessionContext } from "./session-context.ts";
import { Reconciler, type JudgedRow } from "./reconciler.ts";
import { SessionKeeper } from "./session-keeper.ts";
import type { LeaseRenewalsFactory } from "./lease-keeper.ts";
import { SessionEnder, type EndOutcome } from "./session-ender.ts";
import { SessionStarter } from "./session-starter.ts";
import type { StartRequest, StartResult, TransportFactory } from "./start-request.ts";
import { Viewers } from "./viewers.ts";
import { SessionError } from "./session-errors.ts";
import { isContinuable } from "./end-reasons.ts";
import type { SessionReader, StudySessionWrites } from "./ports.ts";
import { toSessionView, type SessionStateView, type SessionView } from "./session-view.ts";
import type { Verdict } from "./verdict.ts";
import type { HistoryAggregates } from "./history-aggregates.ts";
import type { TutorBriefing } from "../cards/card-store.ts";

export type { JudgedRow } from "./reconciler.ts";
export type { StartResult } from "./start-request.ts";
export type { EndOutcome } from "./session-ender.ts";

export interface SessionServiceDeps {
  readonly db: Db;
  /** SQLite's read-only connection for the hot reads; null on PostgreSQL (storage.ts). */
  readonly reads: ReadConnection | null;
  readonly dataDir: string;
  readonly settings: Settings;
  readonly agents: AgentRegistry;
  /** The URL this server serves, stored on rows so another server can name it. */
  readonly ownerUrl: string;
  readonly log: (line: string) => void;
  /** The topic's due cards and struggles for TUTOR.md (server/cards); never throws. */
  readonly briefing?: (topic: string) => Promise<TutorBriefing | undefined>;
  /** The bus shared with the study loop; one is made when not given (the CLI). */
  readonly events?: SessionEvents;
  /** How agents are run (tests pass a fake transport). */
  readonly transports?: TransportFactory;
  /** The keeper's clock (tests move it). */
  readonly now?: () => Date;
  /** This server's host id (host-id.ts); read from the data directory when not given. */
  readonly hostId?: string;
  /** Who renews the leases of the sessions this process runs: the server's lease thread; the store's by default. */
  readonly leases?: LeaseRenewalsFactory;
}

/** How far back "Continue" follows a chain of continued sessions to find their folder. */
const MAX_CHAIN = 100;

export class SessionService implements SessionReader {
  readonly events: SessionEvents;
  readonly store: SessionStore;
  /** The study loop's writes to study_sessions (the store is their only writer). */
  get writes(): StudySessionWrites {
    return this.store.study;
  }
  private readonly ctx: SessionContext;
  private readonly reconciler: Reconciler;
  private readonly ender: SessionEnder;
  private readonly keeper: SessionKeeper;
  private readonly starter: SessionStarter;
  private readonly viewers: Viewers;
  /** The charts' totals built once at start (after an upgrade); a stop waits for it. */
  private aggregatesBuilt: Promise<void> = Promise.resolve();

  constructor(deps: SessionServiceDeps) {
    this.events = deps.events ?? new SessionEvents();
    // SessionStore reads through Prisma when there is no SQLite read connection (issue 21, session-reads.ts).
    // Without a SQLite read connection the database is PostgreSQL (storage.ts).
    this.store = new SessionStore(deps.db, deps.reads);
    this.ctx = makeContext({ ...deps, store: this.store, events: this.events });
    let viewers: Viewers | undefined;
    this.reconciler = new Reconciler(this.ctx, (id) => viewers?.closeTmuxViewer(id));
    this.viewers = viewers = new Viewers(this.ctx, this.reconciler);
    this.ender = new SessionEnder(this.ctx, this.reconciler, (id) => this.viewers.closeTmuxViewer(id));
    this.keeper = new SessionKeeper(this.ctx, this.ender, deps.leases);
    const transports: TransportFactory =
      deps.transports ??
      ((launch) =>
        startTransport(launch, {
          acpEvents: this.store.acpEvents,
          acpHandshakeMs: deps.settings.STUDYLOOP_ACP_HANDSHAKE_SECONDS * 1000,
          acpTurnTimeoutMs: deps.settings.STUDYLOOP_ACP_TURN_TIMEOUT_SECONDS * 1000,
          mirrorHeapMb: deps.settings.STUDYLOOP_MIRROR_HEAP_MB,
          log: deps.log,
        }));
    this.starter = new SessionStarter(this.ctx, this.reconciler, this.ender, transports);
  }

  get instanceId(): string {
    return this.ctx.instanceId;
  }

  // ---- the bus (kept here so sockets subscribe where they always did) --------------------------

  on<K extends keyof SessionEventMap>(event: K, listener: (...args: SessionEventMap[K]) => void): this {
    this.events.on(event, listener as never);
    return this;
  }

  off<K extends keyof SessionEventMap>(event: K, listener: (...args: SessionEventMap[K]) => void): this {
    this.events.off(event, listener as never);
    return this;
  }

  // ---- reads: every one reconciles first -------------------------------------------------------

  reconcileOpen(): Promise<JudgedRow[]> {
    return this.reconciler.reconcileOpen();
  }

  state(): Promise<SessionStateView> {
    return this.reconciler.state();
  }

  session(id: string): Promise<{ view: SessionView; verdict: Verdict | null; transcript: string | null } | null> {
    return this.reconciler.session(id);
  }

  /** The history, newest first; open rows are reconciled first so none is shown live by mistake. */
  async history(filter: { topic?: string; q?: string; take?: number } = {}): Promise<SessionView[]> {
    await this.reconcileOpen();
    const ctx = viewContext(this.ctx);
    return (await this.store.history(filter)).map((row) => toSessionView(row, ctx));
  }

  /** The charts' figures; open rows are not reconciled here (the caller does, as for the history). */
  historyAggregates(now: Date): Promise<HistoryAggregates> {
    return this.store.aggregates.read(now);
  }

  /** The stored conversation of an ACP session, after a number (0: all of it). */
  acpEvents(sessionId: string, afterSeq = 0): Promise<AcpEventRecord[]> {
    return this.store.acpEvents.after(sessionId, afterSeq);
  }

  /**
   * The open session a per-session token belongs to (the agent's `studyloop park` and `topic`).
   * Refused when the token is unknown or its session has ended.
   */
  async sessionForToken(token: string): Promise<string> {
    const row = await this.store.byTokenHash(hashSecret(token));
    if (!row) throw new SessionError("token-invalid", "This session token is not valid: run the command inside a StudyLoop session.");
    const judged = row.endedAt ? null : await this.reconciler.reconcileRow(row);
    if (!judged || judged.row.endedAt)
      throw new SessionError("token-ended", "The session this token belongs to has ended: nothing was written.");
    return row.id;
  }

  // ---- commands --------------------------------------------------------------------------------

  start(input: StartRequest & { transport: "pty" | "acp" }): Promise<StartResult> {
    return this.starter.start(input);
  }

  /**
   * "Continue this session": a new session in the same folder, linked to the previous one, with the
   * agent's resume arguments (or, over ACP, session/load when the agent offers it).
   */
  async continueSession(previousId: string): Promise<StartResult> {
    const previous = await this.store.byId(previousId);
    if (!previous) throw new SessionError("not-found", `There is no session ${previousId}.`);
    if (!previous.endedAt) throw new SessionError("not-continuable", "This session is still running: open the Study page to rejoin it.");
    if (!isContinuable(previous.endReason)) {
      throw new SessionError("not-continuable", "This session was ended on purpose (or never started): start a new session instead.");
    }
    let folderId = previous.id;
    let link = previous.continuedFromId;
    for (let i = 0; link && i < MAX_CHAIN; i++) {
      folderId = link;
      link = (await this.store.byId(link))?.continuedFromId ?? null;
    }
    const request: StartRequest & { transport: "pty" | "acp" } = {
      topic: previous.topic,
      energy: previous.energy,
      agent: previous.agent,
      // A CLI session (tmux) continues in the browser's terminal.
      transport: previous.transport === "acp" ? "acp" : "pty",
      focusPlan: previous.focusPlan === "pomodoro" ? "pomodoro" : "energy",
    };
    return this.starter.start(request, { fromId: previous.id, folderId, agentSessionId: previous.agentSessionId });
  }

  startInTmux(
    input: Omit<StartRequest, "transport">,
    tmux: TmuxOptions,
    wrapper: (sessionId: string) => string[],
  ): Promise<{ session: SessionView; muxSession: string }> {
    return this.starter.startInTmux(input, tmux, wrapper);
  }

  /** Ends the open session here, or asks the server that runs it (endingOn names it). */
  end(reason: "ended-by-learner" = "ended-by-learner"): Promise<EndOutcome> {
    return this.ender.end(reason);
  }

  // ---- viewers -----------------------------------------------------------------------------------

  attachViewer(sessionId: string, viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<SessionView> {
    return this.viewers.attachTerminal(sessionId, viewerId, send, sinceSeq);
  }

  /** A viewer that only types (a reloaded page's early keys): checked as any, sent no output. */
  attachInputViewer(sessionId: string, viewerId: string): Promise<SessionView> {
    return this.viewers.attachTerminalInput(sessionId, viewerId);
  }

  attachAcpViewer(sessionId: string, viewerId: string, send: (event: AcpEventRecord) => void, sinceSeq = 0): Promise<SessionView> {
    return this.viewers.attachChat(sessionId, viewerId, send, sinceSeq);
  }

  detachViewer(sessionId: string, viewerId: string): void {
    this.viewers.detach(sessionId, viewerId);
  }

  /** Input, resize and acks only from a viewer attached to a live terminal of this server. */
  viewer(sessionId: string, viewerId: string): TerminalSession | undefined {
    return this.viewers.terminalFor(sessionId, viewerId);
  }

  /** Prompts, Stop and permission answers only from a viewer attached to a live chat. */
  chat(sessionId: string, viewerId: string): AcpSession | undefined {
    return this.viewers.chatFor(sessionId, viewerId);
  }

  screenPreview(sessionId: string): Promise<ScreenPreview | null> {
    return this.viewers.screenPreview(sessionId);
  }

  // ---- background work ---------------------------------------------------------------------------

  async startBackgroundWork(): Promise<void> {
    await this.reconcileOpen();
    // After an upgrade the charts' day totals are built once from the history: now, not in the first request.
    this.aggregatesBuilt = this.store.aggregates
      .ensureBuilt()
      .then(() => undefined)
      .catch((error: unknown) => this.ctx.log(`The charts' totals could not be built yet: ${String(error)}`));
    this.keeper.start();
  }

  /** Clean stop, bounded in time: live sessions end as server-shutdown after their transcripts are saved. */
  async shutdown(): Promise<void> {
    this.viewers.closeAll();
    await this.keeper.shutdown();
    // A stop right after start waits for the totals' one build (one transaction), not closing the database under it.
    await this.aggregatesBuilt;
  }

  /** Resolves when no end is in flight (tests). */
  settle(): Promise<void> {
    return this.ender.settle();
  }

  /** One keeper pass now (tests). */
  tick(): Promise<void> {
    return this.keeper.tick();
  }
}
