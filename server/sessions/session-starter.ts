// Starting a session: resolve the agent, reconcile, claim the one live slot with a "starting" row
// (the database refuses a second claim), launch the agent through its transport and mark the row
// live. A failure at any step ends the row as startup-failed and leaves no agent running.
import path from "node:path";
import { sessionsDir } from "../config/paths.ts";
import crypto from "node:crypto";
import fs from "node:fs";
import { writeTutorInstructions } from "../agents/tutor-instructions.ts";
import type { TutorBriefing } from "../cards/card-store.ts";
import type { AgentDefinition } from "../agents/agent-catalog.ts";
import { agentEnvironment, passedVariables } from "../config/agent-env.ts";
import { AcpFailure } from "../transports/acp/acp-failure.ts";
import { hashSecret, newSecret } from "../security/secrets.ts";
import { installCommand, withCommandOnPath } from "../agents/studyloop-command.ts";
import { focusPlanFor, type FocusPlan } from "../../common/study/focus-plan.ts";
import type { LiveTransport } from "../transports/live-transport.ts";
import { newSession, tmuxSessionName, type TmuxOptions } from "../transports/tmux/tmux-control.ts";
import type { LiveSession } from "./live-registry.ts";
import { isLiveish } from "./verdict.ts";
import type { SessionView } from "./session-view.ts";
import { SessionError } from "./session-errors.ts";
import { agentProgram } from "./agent-program.ts";
import { alreadyActive } from "./already-active.ts";
import { sessionFolder, viewOf, type SessionContext } from "./session-context.ts";
import type { Reconciler } from "./reconciler.ts";
import { FIRST_GENERATION } from "./session-store.ts";
import type { SessionEnder } from "./session-ender.ts";
import type { Continuation, StartRequest, StartResult, TransportFactory } from "./start-request.ts";

/** Who will own the claimed row (a server process, or tmux for CLI sessions). */
interface ClaimOwner {
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
  readonly command: string;
  readonly args: readonly string[];
  readonly plan: FocusPlan;
  readonly cwd: string;
}

export class SessionStarter {
  constructor(
    private readonly ctx: SessionContext,
    private readonly reconciler: Reconciler,
    private readonly ender: SessionEnder,
    private readonly makeTransport: TransportFactory,
  ) {}

  async start(input: StartRequest & { transport: "pty" | "acp" }, continuation: Continuation | null = null): Promise<StartResult> {
    const { ctx } = this;
    const id = crypto.randomUUID();
    const claim = await this.claim(id, input, continuation, {
      ownerInstance: ctx.instanceId,
      ownerPid: ctx.self.pid,
      ownerPidStartTime: ctx.self.pidStartTime,
      ownerUrl: ctx.ownerUrl,
      muxSession: null,
    });
    let transport: LiveTransport;
    try {
      this.prepareDirectory(claim, input, continuation, continuation ? undefined : await ctx.briefing?.(input.topic));
      transport = await this.makeTransport({
        sessionId: id,
        agent: claim.agent,
        command: claim.command,
        args: claim.args,
        cwd: claim.cwd,
        // `studyloop park` and `studyloop topic` work inside the session even without `npm link`.
        env: withCommandOnPath(
          agentEnvironment(process.env, { id, token: claim.token, serverUrl: ctx.ownerUrl, dataDir: ctx.dataDir }, claim.agent.envPass),
          installCommand(ctx.dataDir),
        ),
        transport: input.transport,
        resume: continuation ? { agentSessionId: continuation.agentSessionId } : null,
        ...(claim.agent.signInHint ? { signInHint: claim.agent.signInHint } : {}),
        passedVariables: passedVariables(process.env, claim.agent.envPass).passed,
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      ctx.log(`Session ${id}: the agent could not start: ${detail}`);
      await this.endUnstarted(id, detail);
      const agentFailure = error instanceof AcpFailure ? error.details : undefined; // its sign-in methods, for the start form
      throw new SessionError(
        "startup-failed",
        `${claim.agent.label} could not start: ${detail}${/[.!?]$/.test(detail) ? "" : "."} The session was ended; check the agent and try again.`,
        { sessionId: id, ...(agentFailure ? { agentFailure } : {}) },
      );
    }

    const live: LiveSession = {
      id,
      transport,
      agentLabel: claim.agent.label,
      startedAt: ctx.now(),
      viewers: new Set(),
      attachedOnce: false,
      lastViewerLeftAt: null,
      checkpointSeq: -1,
      lastCheckpointAt: Date.now(),
      phase: "starting",
      pendingEnd: null,
      ending: null,
      resumedAt: null,
      generation: FIRST_GENERATION,
      leaseRenewedAt: performance.now(),
      lastRow: null,
    };
    ctx.registry.add(live);
    // The record lives in the session's own folder, also when a continued session runs in an earlier one.
    ctx.events.emit("launched", id, path.join(sessionsDir(ctx.dataDir), id), transport.terminal() ?? null, live.startedAt);
    ctx.events.emit("agent-launched", id, claim.agent.name, transport);
    transport.onExit(
      ({ exitCode, detail }) =>
        void this.ender
          .endLive(live, { reason: "agent-exited", exitCode, ...(detail ? { detail } : {}), force: true })
          .catch((e: unknown) => ctx.log(`Session ${id}: ${String(e)} (the keeper retries)`)),
    );
    try {
      const sentAt = performance.now();
      const row = await ctx.store.markLive(id, transport.agentSessionId, { instanceId: ctx.instanceId, generation: live.generation });
      // The first lease: counted from before the write that stamped it.
      live.leaseRenewedAt = sentAt;
      if (live.phase === "starting") live.phase = "live";
      ctx.events.emit("changed");
      return {
        session: viewOf(ctx, row),
        attach:
          transport.view === "chat"
            ? { transport: "acp", sessionId: id, event: "acp:attach" }
            : { transport: "pty", sessionId: id, event: "terminal:attach" },
      };
    } catch (error) {
      // The agent runs but its row cannot say so: stop it rather than leave an agent without a live row.
      await this.ender
        .endLive(live, { reason: "startup-failed", detail: "the database refused the start", force: true }, { deadlineMs: 0 })
        .catch(() => undefined);
      throw error;
    }
  }

  /**
   * `studyloop study`: claims the slot for a tmux session, then has tmux run `wrapper` (the
   * `_tmux-run` command, which runs the agent and heartbeats the row) in the session directory.
   */
  async startInTmux(
    input: Omit<StartRequest, "transport">,
    tmux: TmuxOptions,
    wrapper: (sessionId: string) => string[],
  ): Promise<{ session: SessionView; muxSession: string }> {
    const { ctx } = this;
    const id = crypto.randomUUID();
    const muxSession = tmuxSessionName(input.topic, id);
    const request: StartRequest = { ...input, transport: "tmux" };
    const claim = await this.claim(id, request, null, {
      ownerInstance: null,
      ownerPid: null,
      ownerPidStartTime: null,
      ownerUrl: null,
      muxSession,
    });
    try {
      this.prepareDirectory(claim, request, null, await ctx.briefing?.(request.topic));
      newSession(
        {
          name: muxSession,
          cwd: claim.cwd,
          command: wrapper(id),
          // The wrapper builds the agent's scrubbed environment itself; it needs the token and where it runs.
          env: pickDefined({
            STUDYLOOP_SESSION_TOKEN: claim.token,
            STUDYLOOP_DATA_DIR: ctx.dataDir,
            STUDYLOOP_TMUX_SOCKET: tmux.socket,
            STUDYLOOP_HEARTBEAT_SECONDS: String(ctx.settings.STUDYLOOP_HEARTBEAT_SECONDS),
            STUDYLOOP_RECORDING_MAX_MB: String(ctx.settings.STUDYLOOP_RECORDING_MAX_MB),
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
      await this.endUnstarted(id, detail);
      throw new SessionError("startup-failed", `The session could not start in tmux: ${detail}`);
    }
    const row = await ctx.store.markLive(id);
    return { session: viewOf(ctx, row), muxSession };
  }

  /**
   * Reconcile, then claim the one live slot: the row is written with status "starting". The unique
   * live_slot index makes the database refuse a second claim, even from another process.
   */
  private async claim(id: string, input: StartRequest, continuation: Continuation | null, owner: ClaimOwner): Promise<Claim> {
    const { ctx } = this;
    const { agent, command, args } = agentProgram(ctx.agents, input, continuation !== null);

    // An end a database fault interrupted is finished first (or this start is refused with it).
    await this.ender.finishPending();
    const holder = (await this.reconciler.reconcileOpen()).find((j) => isLiveish(j.verdict));
    if (holder) throw alreadyActive(ctx, holder);

    const token = newSecret();
    const plan = focusPlanFor(input.focusPlan, input.energy);
    // The database's clock: another host judges this row's lease by it (session-store.ts dbNow).
    const now = await ctx.store.dbNow();
    ctx.registry.reserve(id);
    let claimed: boolean;
    try {
      claimed = await ctx.store.claim({
        id,
        topic: input.topic,
        energy: input.energy,
        agent: agent.name,
        transport: input.transport,
        startedAt: now,
        heartbeatAt: now,
        // Other servers judge this row's heartbeat by the lease its owner keeps, not by their own.
        leaseMs: ctx.settings.STUDYLOOP_LEASE_SECONDS * 1000,
        ownerInstance: owner.ownerInstance,
        ownerHost: ctx.self.host,
        ownerHostId: ctx.self.hostId,
        ownerBootId: ctx.self.bootId,
        ownerPid: owner.ownerPid,
        ownerPidStartTime: owner.ownerPidStartTime,
        ownerUrl: owner.ownerUrl,
        muxSession: owner.muxSession,
        tokenHash: hashSecret(token),
        focusPlan: plan.kind,
        focusMinutes: plan.focusMinutes,
        breakMinutes: plan.breakMinutes,
        continuedFromId: continuation?.fromId ?? null,
      });
    } catch (error) {
      ctx.registry.release(id);
      throw error;
    }
    if (!claimed) {
      ctx.registry.release(id);
      // Another start claimed the slot between our read and our write: the database said no.
      const again = (await this.reconciler.reconcileOpen()).find((j) => isLiveish(j.verdict));
      if (again) throw alreadyActive(ctx, again);
      throw new SessionError("already-active", "Another study session was starting at the same moment. Reload to see it.");
    }
    ctx.events.emit("changed");
    return { id, token, agent, command, args: [...args], plan, cwd: sessionFolder(ctx, continuation?.folderId ?? id) };
  }

  /** A claimed row whose agent never ran: ended as startup-failed, the reservation released. */
  private async endUnstarted(id: string, detail: string): Promise<void> {
    const { ctx } = this;
    try {
      const row = await ctx.store.byId(id);
      if (row) await ctx.store.end(row, { reason: "startup-failed", endedAt: new Date(), detail }, row);
    } catch (error) {
      // No agent runs: the row is judged orphaned (the reservation is gone) by the next reader.
      ctx.log(`Session ${id}: could not record the failed start: ${String(error)}`);
    } finally {
      ctx.registry.release(id);
      ctx.events.emit("changed");
    }
  }

  private prepareDirectory(claim: Claim, input: StartRequest, continuation: Continuation | null, review: TutorBriefing | undefined): void {
    fs.mkdirSync(claim.cwd, { recursive: true, mode: 0o700 });
    // A continued session keeps the folder as the agent left it (its instructions are already there).
    if (!continuation)
      writeTutorInstructions(claim.cwd, claim.agent, {
        topic: input.topic,
        energy: input.energy,
        focusMinutes: claim.plan.focusMinutes,
        review,
      });
  }
}

function pickDefined(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}
