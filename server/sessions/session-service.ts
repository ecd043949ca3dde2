// Study sessions of this server: start, end, read (always reconciling first), viewers, and the
// background work that keeps a live row honest (heartbeat, transcript checkpoints, the reaper).
import { EventEmitter } from "node:events";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Prisma } from "../db/generated/client.ts";
import type { StudySession } from "../db/generated/client.ts";
import type { Db, ReadConnection } from "../db/client.ts";
import type { Settings } from "../config/settings.ts";
import { sessionsDir } from "../config/paths.ts";
import type { AgentRegistry } from "../agents/agent-registry.ts";
import { writeTutorInstructions } from "../agents/tutor-instructions.ts";
import type { TutorBriefing } from "../cards/card-store.ts";
import { agentEnvironment, scrubbedEnvironment } from "../security/agent-env.ts";
import { hashSecret, newSecret } from "../security/secrets.ts";
import { installCommand, withCommandOnPath } from "../agents/studyloop-command.ts";
import { ApiError, conflict, notFound } from "../api/api-error.ts";
import type { StartSessionInput } from "../api/schemas.ts";
import { TerminalSession, type TerminalFrame } from "../transports/pty/terminal-session.ts";
import type { ScreenPreview } from "../transports/pty/screen-preview.ts";
import { focusPlanFor, type FocusPlan } from "../study/focus-plan.ts";
import type { AgentDefinition } from "../agents/agent-catalog.ts";
import { attachCommand, capturePane, killSession, newSession, tmuxSessionName, type TmuxOptions } from "../transports/tmux/tmux-control.ts";
import { LiveRegistry, agentProcess, type LiveRunner, type LiveSession } from "./live-registry.ts";
import { AcpSession } from "../transports/acp/acp-session.ts";
import { AcpFanout } from "../transports/acp/acp-fanout.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import { LIVE_SLOT, SessionStore, type EndWrite, type SessionRow } from "./session-store.ts";
import { clockTime } from "./end-reasons.ts";
import { gatherFacts, selfIdentity } from "./owner-probes.ts";
import { isLiveish, judgeSession, type SelfIdentity, type Verdict } from "./verdict.ts";
import {
  toSessionView,
  verdictNotice,
  type SessionStateView,
  type SessionView,
  type ViewContext,
} from "./session-view.ts";

export interface SessionServiceDeps {
  readonly db: Db;
  /** A read connection on the same file: the state read's queries (session-store.ts). */
  readonly reads: ReadConnection;
  readonly dataDir: string;
  readonly settings: Settings;
  readonly agents: AgentRegistry;
  /** The URL this server serves, stored on rows so another server can name it. */
  readonly ownerUrl: string;
  readonly log: (line: string) => void;
  /** The topic's due cards and struggles for TUTOR.md (server/cards); never throws. */
  readonly briefing?: (topic: string) => Promise<TutorBriefing | undefined>;
}

/** A row and what it is; reads of open rows leave the transcript out (SessionRow). */
export interface JudgedRow<R extends SessionRow = SessionRow> {
  readonly row: R;
  readonly verdict: Verdict;
}

export interface StartResult {
  readonly session: SessionView;
  readonly attach: NonNullable<SessionStateView["attach"]>;
}

/** What the realtime layer is told; it forwards these to the sockets concerned. */
export interface SessionEvents {
  changed: [];
  ended: [sessionId: string, view: SessionView];
  /** A pty or acp session's agent has started here (the recorder taps the terminal from now on). */
  launched: [sessionId: string, dir: string, terminal: TerminalSession | null, startedAt: Date];
}

const TICK_MS = 1_000;

/** What a start asks for: the HTTP body's fields, or the CLI's with transport "tmux". */
type StartRequest = Omit<StartSessionInput, "transport"> & { transport: "pty" | "acp" | "tmux" };

/** Who will own the claimed row (a server process, or tmux for CLI sessions). */
interface ClaimOwner {
  readonly id?: string;
  readonly ownerInstance: string | null;
  readonly ownerPid: number | null;
  readonly ownerPidStartTime: string | null;
  readonly ownerUrl: string | null;
  readonly muxSession: string | null;
}

interface Claim {
  readonly id: string;
  readonly token: string;
  readonly agent: AgentDefinition;
  readonly executable: string;
  readonly args: string[];
  readonly plan: FocusPlan;
  readonly now: Date;
  readonly cwd: string;
}
/** What node-pty's child prints when exec fails (the program is not runnable). */
const EXEC_FAILED = /^execvp\(3\) failed\.:?(.*)$/m;

export class SessionService extends EventEmitter<SessionEvents> {
  readonly instanceId = crypto.randomUUID();
  private readonly self: SelfIdentity & { pid: number; pidStartTime: string | null };
  private readonly registry = new LiveRegistry();
  private readonly store: SessionStore;
  /** Per ACP session, the chain of event writes: events are stored one after another, in order. */
  private readonly acpWrites = new Map<string, Promise<void>>();
  /** Browser viewers of CLI (tmux) sessions: one `tmux attach` pty per session. */
  private readonly tmuxViewers = new Map<string, { terminal: TerminalSession; viewers: Set<string> }>();
  private timer: NodeJS.Timeout | undefined;
  private lastHeartbeat = 0;
  private stopped = false;
  /** Count of "changed" events: a shared state read started before the latest change is not reused. */
  private changes = 0;
  private stateRead: { promise: Promise<SessionStateView>; changes: number } | undefined;

  constructor(private readonly deps: SessionServiceDeps) {
    super();
    this.on("changed", () => this.changes++);
    this.store = new SessionStore(deps.db, deps.reads);
    const me = selfIdentity();
    this.self = { instanceId: this.instanceId, host: me.host, bootId: me.bootId, pid: me.pid, pidStartTime: me.pidStartTime };
  }

  // ---- reads: every one reconciles first -------------------------------------------------------

  /** Judges every open row; orphans are ended in the same read. */
  async reconcileOpen(): Promise<JudgedRow[]> {
    const rows = await this.store.open();
    return Promise.all(rows.map((row) => this.reconcileRow(row)));
  }

  async reconcileRow<R extends SessionRow>(row: R): Promise<JudgedRow<R>> {
    const facts = await gatherFacts(row as Parameters<typeof gatherFacts>[0], this.self, this.registry, {
      leaseMs: this.deps.settings.STUDYLOOP_LEASE_SECONDS * 1000,
      tmux: this.tmuxOptions,
    });
    const verdict = judgeSession(row as Parameters<typeof judgeSession>[0], facts);
    if (verdict.kind === "unknown") this.deps.log(`Session ${row.id}: owner unknown (${verdict.probe}: ${verdict.error}); treated as live.`);
    if (verdict.kind !== "orphaned") return { row, verdict };
    const ended = await this.store.end(row, { reason: verdict.endReason, endedAt: verdict.endedAt, detail: verdict.cause }, row);
    // A full row (transcript included) is a SessionRow and a StudySession alike.
    const fresh = ((await this.store.byId(row.id)) ?? row) as R;
    if (ended) {
      this.deps.log(`Session ${row.id} ended on read: ${verdict.endReason} (${verdict.cause}).`);
      this.closeTmuxViewer(row.id);
      this.emit("ended", row.id, this.view(fresh));
      this.emit("changed");
    }
    return { row: fresh, verdict: { kind: "ended", rule: "ended" } as Verdict };
  }

  /**
   * The current state. Concurrent reads share one database read (pages, their pollers and the API
   * ask at once), unless this service changed something after that read began: a reader never gets
   * a state older than its own request and this server's last write (docs/performance.md).
   */
  state(): Promise<SessionStateView> {
    const shared = this.stateRead;
    if (shared && shared.changes === this.changes) return shared.promise;
    const promise = this.readState().finally(() => {
      if (this.stateRead?.promise === promise) this.stateRead = undefined;
    });
    this.stateRead = { promise, changes: this.changes };
    return promise;
  }

  private async readState(): Promise<SessionStateView> {
    const judged = await this.reconcileOpen();
    const current = judged.find((j) => isLiveish(j.verdict));
    const lastEndedRow = await this.store.lastEnded();
    const lastEnded = lastEndedRow ? this.view(lastEndedRow) : null;
    if (!current) return { state: lastEnded ? "ended" : "idle", session: null, verdict: null, attach: null, lastEnded };
    const session = this.view(current.row);
    const viaTmux = current.verdict.kind === "live-elsewhere" && current.verdict.via === "tmux" && current.row.ownerHost === this.self.host;
    const attachable = current.verdict.kind === "live-here" || viaTmux;
    return {
      state: current.verdict.kind === "starting" ? "starting" : "focus",
      session,
      verdict: { kind: current.verdict.kind, rule: current.verdict.rule, notice: verdictNotice(current.verdict, session) },
      attach: attachable ? attachInfo(current.row.transport === "acp" ? "acp" : viaTmux ? "tmux" : "pty", current.row.id) : null,
      lastEnded,
    };
  }

  /** One session, reconciled if it is still open. */
  async session(id: string): Promise<{ view: SessionView; verdict: Verdict | null; transcript: string | null } | null> {
    const row = await this.store.byId(id);
    if (!row) return null;
    const judged = row.endedAt ? { row, verdict: null } : await this.reconcileRow(row);
    return { view: this.view(judged.row), verdict: judged.verdict, transcript: judged.row.transcript };
  }

  /** The history, newest first; open rows are reconciled first so none is shown live by mistake. */
  /** `ids`: only these sessions (a search's matches, server/recording/search-index.ts). */
  async history(filter: { topic?: string; ids?: readonly string[]; take?: number } = {}): Promise<SessionView[]> {
    await this.reconcileOpen();
    const rows = await this.deps.db.studySession.findMany({
      where: {
        ...(filter.topic ? { topic: filter.topic } : {}),
        ...(filter.ids ? { id: { in: [...filter.ids] } } : {}),
      },
      orderBy: { startedAt: "desc" },
      take: filter.take ?? 100,
    });
    const ctx = this.viewContext;
    return rows.map((row) => toSessionView(row, ctx));
  }

  // ---- commands --------------------------------------------------------------------------------

  async start(input: StartSessionInput): Promise<StartResult> {
    const claim = await this.claim(input, {
      ownerInstance: this.instanceId,
      ownerPid: this.self.pid,
      ownerPidStartTime: this.self.pidStartTime,
      ownerUrl: this.deps.ownerUrl,
      muxSession: null,
    });
    return this.launch(input, claim);
  }

  /**
   * Reconcile, then claim the one live slot: the row is written with status "starting". The unique
   * live_slot index makes the database refuse a second claim, even from another process.
   */
  private async claim(input: StartRequest, owner: ClaimOwner): Promise<Claim> {
    const agent = this.deps.agents.find(input.agent);
    if (!agent) {
      const names = this.deps.agents.definitions().map((a) => a.name).join(", ");
      throw new ApiError(400, `There is no agent called "${input.agent}". Choose one of: ${names}.`, { field: "agent" });
    }
    const program = input.transport === "acp" ? agent.acp : { command: agent.command, args: [...agent.args] };
    if (!program) {
      throw new ApiError(400, `${agent.label} does not speak the Agent Client Protocol here: choose the terminal (pty) for it.`, { field: "transport" });
    }
    const executable = this.deps.agents.resolveExecutable(program.command);
    if (!executable) {
      throw new ApiError(503, `${agent.label} is not installed on this machine (\`${program.command}\` is not on the PATH). ${agent.installHint}`, {
        installHint: agent.installHint,
      });
    }

    const judged = await this.reconcileOpen();
    const holder = judged.find((j) => isLiveish(j.verdict));
    if (holder) throw this.alreadyActive(holder);

    const id = owner.id ?? crypto.randomUUID();
    const token = newSecret();
    const plan = focusPlanFor(input.focusPlan, input.energy);
    const now = new Date();
    this.registry.reserve(id);
    try {
      await this.deps.db.studySession.create({
        data: {
          id,
          topic: input.topic,
          energy: input.energy,
          agent: agent.name,
          transport: input.transport,
          status: "starting",
          startedAt: now,
          heartbeatAt: now,
          ownerInstance: owner.ownerInstance,
          ownerHost: this.self.host,
          ownerBootId: this.self.bootId,
          ownerPid: owner.ownerPid,
          ownerPidStartTime: owner.ownerPidStartTime,
          ownerUrl: owner.ownerUrl,
          muxSession: owner.muxSession,
          liveSlot: LIVE_SLOT,
          tokenHash: hashSecret(token),
          focusPlan: plan.kind,
          focusMinutes: plan.focusMinutes,
          breakMinutes: plan.breakMinutes,
        },
      });
    } catch (error) {
      this.registry.release(id);
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
        // Another start claimed the slot between our read and our write: the database said no.
        const again = (await this.reconcileOpen()).find((j) => isLiveish(j.verdict));
        if (again) throw this.alreadyActive(again);
        throw conflict("Another study session was starting at the same moment. Reload to see it.");
      }
      throw error;
    }
    this.emit("changed");
    const cwd = path.join(sessionsDir(this.deps.dataDir), id);
    return { id, token, agent, executable, args: [...program.args], plan, now, cwd };
  }

  /** Starts the agent of a claimed pty or acp session in this server and marks the row live. */
  private async launch(input: StartSessionInput, claim: Claim): Promise<StartResult> {
    const { id, token, agent, executable, plan, now, cwd } = claim;
    let runner: LiveRunner;
    try {
      this.prepareDirectory(claim, input, await this.deps.briefing?.(input.topic));
      const launch = {
        command: executable,
        args: claim.args,
        cwd,
        // `studyloop park` and `studyloop topic` work inside the session even without `npm link`.
        env: withCommandOnPath(
          agentEnvironment(process.env, { id, token, serverUrl: this.deps.ownerUrl, dataDir: this.deps.dataDir }),
          installCommand(this.deps.dataDir),
        ),
      };
      if (input.transport === "acp") {
        const fanout = new AcpFanout();
        const acp = await AcpSession.start({
          ...launch,
          handshakeTimeoutMs: this.deps.settings.STUDYLOOP_ACP_HANDSHAKE_SECONDS * 1000,
          record: (event) => this.recordAcpEvent(id, event, fanout),
        });
        runner = { kind: "acp", acp, fanout };
      } else {
        runner = { kind: "pty", terminal: TerminalSession.start({ ...launch, cols: 80, rows: 24 }) };
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.deps.log(`Session ${id}: the agent could not start: ${detail}`);
      await this.acpWrites.get(id);
      const row = await this.store.byId(id);
      if (row) await this.store.end(row, { reason: "startup-failed", endedAt: new Date(), detail });
      this.registry.release(id);
      this.acpWrites.delete(id);
      this.emit("changed");
      throw new ApiError(502, `${agent.label} could not start: ${detail}. The session was ended; check the agent and try again.`);
    }

    const live: LiveSession = {
      id,
      runner,
      agentLabel: agent.label,
      startedAt: now,
      viewers: new Set(),
      attachedOnce: false,
      lastViewerLeftAt: null,
      checkpointSeq: -1,
      lastCheckpointAt: Date.now(),
      ending: false,
    };
    this.registry.add(live);
    this.emit("launched", id, cwd, runner.kind === "pty" ? runner.terminal : null, now);
    if (runner.kind === "pty") {
      runner.terminal.onExit(({ exitCode }) => void this.endLive(live, { reason: "agent-exited", exitCode }));
    } else {
      runner.acp.onExit(({ exitCode, detail }) => void this.endLive(live, { reason: "agent-exited", exitCode, detail }));
    }
    const row = await this.deps.db.studySession.update({
      where: { id },
      data: { status: "live", heartbeatAt: new Date(), ...(runner.kind === "acp" ? { agentSessionId: runner.acp.sessionIdAtAgent ?? null } : {}) },
    });
    this.emit("changed");
    return { session: this.view(row), attach: attachInfo(input.transport, id) };
  }

  // ---- CLI sessions in tmux -------------------------------------------------------------------------

  /**
   * `studyloop study`: claims the slot for a tmux session, then has tmux run `wrapper` (the
   * `_tmux-run` command, which runs the agent and heartbeats the row) in the session directory.
   */
  async startInTmux(
    input: Omit<StartSessionInput, "transport">,
    tmux: TmuxOptions,
    wrapper: (sessionId: string) => string[],
  ): Promise<{ session: SessionView; muxSession: string }> {
    const id = crypto.randomUUID();
    const muxSession = tmuxSessionName(input.topic, id);
    const request: StartRequest = { ...input, transport: "tmux" };
    const claim = await this.claim(request, { id, ownerInstance: null, ownerPid: null, ownerPidStartTime: null, ownerUrl: null, muxSession });
    try {
      this.prepareDirectory(claim, request, await this.deps.briefing?.(request.topic));
      newSession(
        {
          name: muxSession,
          cwd: claim.cwd,
          command: wrapper(id),
          // The wrapper builds the agent's scrubbed environment itself; it needs the token and where it runs.
          env: pickDefined({
            STUDYLOOP_SESSION_TOKEN: claim.token,
            STUDYLOOP_DATA_DIR: this.deps.dataDir,
            STUDYLOOP_TMUX_SOCKET: tmux.socket,
            STUDYLOOP_HEARTBEAT_SECONDS: String(this.deps.settings.STUDYLOOP_HEARTBEAT_SECONDS),
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            SHELL: process.env.SHELL,
            LANG: process.env.LANG,
          }),
        },
        tmux,
      );
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const row = await this.store.byId(id);
      if (row) await this.store.end(row, { reason: "startup-failed", endedAt: new Date(), detail });
      throw new ApiError(502, `The session could not start in tmux: ${detail}`);
    }
    const row = await this.deps.db.studySession.update({ where: { id }, data: { status: "live", heartbeatAt: new Date() } });
    return { session: this.view(row), muxSession };
  }

  /**
   * "Open in browser" for a CLI session: a pty running `tmux attach` to it, shared by every browser
   * viewer. When tmux goes away the viewer's pty exits and the session is reconciled (tmux-gone).
   */
  private async attachTmuxViewer(sessionId: string, viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<SessionView> {
    const row = await this.store.byId(sessionId);
    if (!row || row.transport !== "tmux" || row.endedAt || !row.muxSession) throw await this.notAttachable(sessionId);
    const judged = await this.reconcileRow(row);
    if (judged.verdict.kind !== "live-elsewhere" || row.ownerHost !== this.self.host) throw await this.notAttachable(sessionId);
    let entry = this.tmuxViewers.get(sessionId);
    if (!entry) {
      const attach = attachCommand(row.muxSession, this.tmuxOptions);
      const terminal = TerminalSession.start({
        command: this.deps.agents.resolveExecutable(attach.command) ?? attach.command,
        args: attach.args,
        cwd: path.join(sessionsDir(this.deps.dataDir), sessionId),
        env: { ...scrubbedEnvironment(process.env), TERM: "xterm-256color" },
        cols: 120,
        rows: 36,
      });
      entry = { terminal, viewers: new Set() };
      this.tmuxViewers.set(sessionId, entry);
      const mine = entry;
      terminal.onExit(() => {
        if (this.tmuxViewers.get(sessionId) !== mine) return;
        this.closeTmuxViewer(sessionId);
        // tmux detached us or went away: read the row again to learn which.
        void this.store.byId(sessionId).then((fresh) => (fresh && !fresh.endedAt ? this.reconcileRow(fresh) : undefined));
      });
    }
    entry.viewers.add(viewerId);
    await entry.terminal.attach(viewerId, send, sinceSeq === undefined ? undefined : { sinceSeq });
    return this.view(row);
  }

  private closeTmuxViewer(sessionId: string): void {
    const entry = this.tmuxViewers.get(sessionId);
    if (!entry) return;
    this.tmuxViewers.delete(sessionId);
    entry.terminal.kill();
    entry.terminal.dispose();
  }

  private get tmuxOptions(): TmuxOptions {
    return { socket: this.deps.settings.STUDYLOOP_TMUX_SOCKET };
  }

  private prepareDirectory(claim: Claim, input: StartRequest, review?: TutorBriefing): void {
    fs.mkdirSync(claim.cwd, { recursive: true, mode: 0o700 });
    writeTutorInstructions(claim.cwd, claim.agent, { topic: input.topic, energy: input.energy, focusMinutes: claim.plan.focusMinutes, review });
  }

  /** Ends the open session, wherever it runs: the learner can always end. */
  async end(reason: "ended-by-learner" = "ended-by-learner"): Promise<SessionView> {
    const judged = await this.reconcileOpen();
    const current = judged.find((j) => j.row.endedAt === null);
    if (!current) throw notFound("No active session: there is nothing to end.");
    const live = this.registry.get(current.row.id);
    if (live) {
      await this.endLive(live, { reason });
    } else if (current.row.transport === "tmux") {
      // Row first (with the summary), then close tmux: its wrapper then finds the row ended.
      const name = current.row.muxSession;
      const transcript = name ? capturePane(`=${name}:`, this.tmuxOptions) : null;
      await this.store.end(current.row, { reason, endedAt: new Date(), transcript });
      if (name) killSession(name, this.tmuxOptions);
      this.closeTmuxViewer(current.row.id);
      this.emit("changed");
    } else {
      // Owned by another server (or unknown): writing the row is enough; its owner stops the agent
      // on its next heartbeat and keeps this reason.
      await this.store.end(current.row, { reason, endedAt: new Date() });
      this.emit("changed");
    }
    const row = await this.store.byId(current.row.id);
    return this.view(row ?? current.row);
  }

  /**
   * The open session a per-session token belongs to (the agent's `studyloop park` and `topic`).
   * Refused when the token is unknown or its session has ended.
   */
  async sessionForToken(token: string): Promise<string> {
    const row = await this.deps.db.studySession.findFirst({ where: { tokenHash: hashSecret(token) } });
    if (!row) throw new ApiError(401, "This session token is not valid: run the command inside a StudyLoop session.");
    const judged = row.endedAt ? null : await this.reconcileRow(row);
    if (!judged || judged.row.endedAt) throw new ApiError(409, "The session this token belongs to has ended: nothing was written.");
    return row.id;
  }

  // ---- viewers -----------------------------------------------------------------------------------

  /** A terminal viewer: one replay (or a resume from sinceSeq), then live output. */
  async attachViewer(sessionId: string, viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<SessionView> {
    if (!this.registry.has(sessionId)) return this.attachTmuxViewer(sessionId, viewerId, send, sinceSeq);
    const live = await this.liveFor(sessionId, "pty");
    const terminal = (live.runner as Extract<LiveRunner, { kind: "pty" }>).terminal;
    this.addViewer(live, viewerId);
    await terminal.attach(viewerId, send, sinceSeq === undefined ? undefined : { sinceSeq });
    return this.markAttached(sessionId);
  }

  /**
   * The visible screen of a live pty session of this server, for a page to paint before its own
   * terminal has loaded and attached; null when there is none (not live here, not a pty, an error).
   */
  async screenPreview(sessionId: string): Promise<ScreenPreview | null> {
    const live = this.registry.get(sessionId);
    if (!live || live.ending || live.runner.kind !== "pty") return null;
    return live.runner.terminal.screenPreview().catch(() => null);
  }

  /** A chat viewer: every stored event after sinceSeq, then each new one. */
  async attachAcpViewer(sessionId: string, viewerId: string, send: (event: AcpEventRecord) => void, sinceSeq = 0): Promise<SessionView> {
    const live = await this.liveFor(sessionId, "acp");
    const { fanout } = live.runner as Extract<LiveRunner, { kind: "acp" }>;
    this.addViewer(live, viewerId);
    await fanout.attach(viewerId, send, sinceSeq, async (after) => {
      await this.acpWrites.get(sessionId);
      return this.acpEvents(sessionId, after);
    });
    return this.markAttached(sessionId);
  }

  detachViewer(sessionId: string, viewerId: string): void {
    const tmuxViewer = this.tmuxViewers.get(sessionId);
    if (tmuxViewer?.viewers.delete(viewerId)) {
      tmuxViewer.terminal.detach(viewerId);
      // Nobody watches in the browser: detach tmux's client; the session itself goes on in tmux.
      if (tmuxViewer.viewers.size === 0) this.closeTmuxViewer(sessionId);
      return;
    }
    const live = this.registry.get(sessionId);
    if (!live || !live.viewers.delete(viewerId)) return;
    if (live.runner.kind === "pty") live.runner.terminal.detach(viewerId);
    else live.runner.fanout.detach(viewerId);
    if (live.viewers.size === 0) live.lastViewerLeftAt = new Date();
  }

  /** Input, resize and acks only from a viewer attached to a live pty session of this server. */
  viewer(sessionId: string, viewerId: string): TerminalSession | undefined {
    const tmuxViewer = this.tmuxViewers.get(sessionId);
    if (tmuxViewer) return tmuxViewer.viewers.has(viewerId) ? tmuxViewer.terminal : undefined;
    const live = this.registry.get(sessionId);
    return live && !live.ending && live.viewers.has(viewerId) && live.runner.kind === "pty" ? live.runner.terminal : undefined;
  }

  /** Prompts, Stop and permission answers only from a viewer attached to a live acp session. */
  chat(sessionId: string, viewerId: string): AcpSession | undefined {
    const live = this.registry.get(sessionId);
    return live && !live.ending && live.viewers.has(viewerId) && live.runner.kind === "acp" ? live.runner.acp : undefined;
  }

  /** The stored conversation of an ACP session, after a number (0: all of it). */
  async acpEvents(sessionId: string, afterSeq = 0): Promise<AcpEventRecord[]> {
    const rows = await this.deps.db.acpEvent.findMany({ where: { sessionId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({ seq: r.seq, kind: r.kind as AcpEventRecord["kind"], payload: JSON.parse(r.payload) as Record<string, unknown>, at: r.createdAt.toISOString() }));
  }

  private async liveFor(sessionId: string, kind: LiveRunner["kind"]): Promise<LiveSession> {
    const live = this.registry.get(sessionId);
    if (!live || live.ending) throw await this.notAttachable(sessionId);
    if (live.runner.kind !== kind) throw new ApiError(409, `This session is a ${live.runner.kind === "acp" ? "chat" : "terminal"} session: reload the page to open it the right way.`);
    return live;
  }

  private addViewer(live: LiveSession, viewerId: string): void {
    live.viewers.add(viewerId);
    live.attachedOnce = true;
    live.lastViewerLeftAt = null;
  }

  private async markAttached(sessionId: string): Promise<SessionView> {
    const row = (await this.store.byId(sessionId))!;
    if (!row.attachedOnce) await this.deps.db.studySession.update({ where: { id: sessionId }, data: { attachedOnce: true } });
    return this.view(row);
  }

  /** Stores each ACP event in arrival order, then hands it to the viewers (persist, then broadcast). */
  private recordAcpEvent(sessionId: string, event: AcpEventRecord, fanout: AcpFanout): void {
    const previous = this.acpWrites.get(sessionId) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        await this.deps.db.acpEvent.create({
          data: { sessionId, seq: event.seq, kind: event.kind, payload: JSON.stringify(event.payload), createdAt: new Date(event.at) },
        });
        fanout.publish(event);
      })
      .catch((error: unknown) => this.deps.log(`Session ${sessionId}: could not store ACP event ${event.seq}: ${String(error)}`));
    this.acpWrites.set(sessionId, next);
  }

  // ---- lifecycle -----------------------------------------------------------------------------------

  async startBackgroundWork(): Promise<void> {
    await this.reconcileOpen();
    this.timer = setInterval(() => void this.tick().catch((e: unknown) => this.deps.log(`Background check failed: ${String(e)}`)), TICK_MS);
    this.timer.unref();
  }

  /** Clean stop: every live session ends as server-shutdown after its transcript is saved. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const sessionId of [...this.tmuxViewers.keys()]) this.closeTmuxViewer(sessionId);
    await Promise.all(this.registry.all().map((live) => this.endLive(live, { reason: "server-shutdown" })));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    const now = new Date();
    const s = this.deps.settings;
    const heartbeatDue = now.getTime() - this.lastHeartbeat >= s.STUDYLOOP_HEARTBEAT_SECONDS * 1000;
    if (heartbeatDue) this.lastHeartbeat = now.getTime();
    for (const live of this.registry.all()) {
      if (live.ending) continue;
      if (heartbeatDue && !(await this.store.heartbeat(live.id, this.instanceId, now))) {
        await this.endedElsewhere(live);
        continue;
      }
      if (live.viewers.size === 0) {
        if (!live.attachedOnce && now.getTime() - live.startedAt.getTime() >= s.STUDYLOOP_NEVER_ATTACHED_SECONDS * 1000) {
          await this.endLive(live, { reason: "never-attached" });
          continue;
        }
        if (live.lastViewerLeftAt && now.getTime() - live.lastViewerLeftAt.getTime() >= s.STUDYLOOP_GRACE_SECONDS * 1000) {
          await this.endLive(live, { reason: "grace-expired" });
          continue;
        }
      }
      if (now.getTime() - live.lastCheckpointAt >= s.STUDYLOOP_CHECKPOINT_SECONDS * 1000) await this.checkpoint(live);
    }
  }

  private async checkpoint(live: LiveSession): Promise<void> {
    live.lastCheckpointAt = Date.now();
    const agent = agentProcess(live.runner);
    const seq = agent.lastSeq;
    if (seq === live.checkpointSeq) return;
    const transcript = await agent.snapshotTranscript();
    await this.store.checkpoint(live.id, transcript, new Date());
    live.checkpointSeq = seq;
  }

  /** Ends a session this server runs: save the transcript, stop the agent, write the row, tell viewers. */
  private async endLive(live: LiveSession, how: { reason: string; exitCode?: number; detail?: string }): Promise<void> {
    if (live.ending) return;
    live.ending = true;
    const agent = agentProcess(live.runner);
    let transcript: string | null = null;
    try {
      transcript = await agent.snapshotTranscript();
    } catch (error) {
      this.deps.log(`Session ${live.id}: could not save the transcript: ${String(error)}`);
    }
    if (how.reason !== "agent-exited") agent.kill();
    let reason = how.reason;
    let detail: string | null = how.detail ?? null;
    const execFailure = how.reason === "agent-exited" && transcript ? EXEC_FAILED.exec(transcript) : null;
    if (execFailure) {
      // node-pty forks, then the exec fails in the child: the program never ran.
      reason = "startup-failed";
      detail = `the program could not be run (${execFailure[1]?.trim() || "exec failed"})`;
    }
    const row = await this.store.byId(live.id);
    const write: EndWrite = { reason, endedAt: new Date(), exitCode: how.exitCode ?? null, detail, transcript };
    if (row && !(await this.store.end(row, write)) && transcript) {
      // Someone else ended it first (their reason stands); the transcript is still worth keeping.
      await this.store.checkpoint(live.id, transcript, new Date());
    }
    await this.finish(live);
  }

  /** Our row was ended by another server or device: stop the agent, keep their reason. */
  private async endedElsewhere(live: LiveSession): Promise<void> {
    if (live.ending) return;
    live.ending = true;
    const agent = agentProcess(live.runner);
    try {
      const transcript = await agent.snapshotTranscript();
      await this.store.checkpoint(live.id, transcript, new Date());
    } catch (error) {
      this.deps.log(`Session ${live.id}: could not save the transcript: ${String(error)}`);
    }
    agent.kill();
    await this.finish(live);
  }

  private async finish(live: LiveSession): Promise<void> {
    this.registry.remove(live.id);
    agentProcess(live.runner).dispose();
    await this.acpWrites.get(live.id);
    this.acpWrites.delete(live.id);
    const row = await this.store.byId(live.id);
    if (row) this.emit("ended", live.id, this.view(row));
    this.emit("changed");
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private view(row: SessionRow): SessionView {
    return toSessionView(row, this.viewContext);
  }

  /** Reads the agent definitions once per context, not once per row. */
  private get viewContext(): ViewContext {
    let labels: Map<string, string> | undefined;
    return {
      agentLabel: (name) => {
        labels ??= new Map(this.deps.agents.definitions().map((a) => [a.name, a.label]));
        return labels.get(name) ?? name;
      },
      graceMinutes: Math.round(this.deps.settings.STUDYLOOP_GRACE_SECONDS / 60),
      minuteMs: this.deps.settings.STUDYLOOP_TIMER_MINUTE_SECONDS * 1000,
    };
  }

  private alreadyActive(holder: JudgedRow): ApiError {
    const view = this.view(holder.row);
    const here = holder.verdict.kind === "live-here" || holder.verdict.kind === "starting";
    const where = here ? "It runs on this server: open the Study page to rejoin it." : (verdictNotice(holder.verdict, view) ?? "");
    return conflict(
      `A study session is already active: "${view.topic}" with ${this.viewContext.agentLabel(view.agent)} since ${clockTime(new Date(view.startedAt))}. ${where} End it first to start a new one.`.replace("  ", " "),
      { session: view, canReattach: holder.verdict.kind === "live-here", verdict: holder.verdict.kind, ownerUrl: holder.row.ownerUrl },
    );
  }

  private async notAttachable(sessionId: string): Promise<ApiError> {
    const found = await this.session(sessionId);
    if (!found) return notFound(`There is no session ${sessionId}.`);
    if (found.view.status === "ended") return new ApiError(410, found.view.explanation ?? "This session has ended.", { session: found.view });
    const notice = found.verdict ? verdictNotice(found.verdict, found.view) : null;
    return conflict(notice ?? "This session is not running on this server.", { session: found.view });
  }
}

function attachInfo(transport: "pty" | "acp" | "tmux", sessionId: string): StartResult["attach"] {
  return transport === "acp" ? { transport, sessionId, event: "acp:attach" } : { transport, sessionId, event: "terminal:attach" };
}

function pickDefined(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}
