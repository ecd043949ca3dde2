// One agent speaking the Agent Client Protocol over stdio: spawn, handshake, prompts, cancel and
// permission questions answered by the learner. Every event is numbered and handed to `record` in
// arrival order; the owner stores it before anyone sees it.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, PROTOCOL_VERSION, type ClientConnection } from "@agentclientprotocol/sdk";
import type { ContentBlock, InitializeResponse, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpFailure, describeAgentError, failureSentence, lastStderrLine, readSignInMethods, type SignInMethod } from "./acp-failure.ts";
import { ACP_LIMITS, type AcpEventKind, type AcpEventRecord } from "./acp-events.ts";
import { ATTACHMENT_LIMITS, contentBlock, readAttachment, type PromptSupport, type StoredAttachment } from "./attachments.ts";
import { renderTranscript } from "./acp-transcript.ts";
import { ProtocolLineGuard } from "./protocol-line-guard.ts";

export { AcpFailure };

export interface AcpSpawnOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly handshakeTimeoutMs?: number;
  /** Continue this conversation with session/load when the agent advertises loadSession (else session/new). */
  readonly loadSessionId?: string;
  /** A turn with no event from the agent for this long is stopped (the configurable time-out). */
  readonly turnTimeoutMs?: number;
  /** After Stop, how long the agent has to end the turn itself (tests shorten it). */
  readonly cancelGraceMs?: number;
  /** How to sign in to this agent, shown when it refuses for want of credentials. */
  readonly signInHint?: string;
}

/** What the agent said about itself at initialize; recorded as the first event of the chat. */
export interface AgentProfile {
  readonly name?: string;
  readonly version?: string;
  readonly prompt: PromptSupport;
  /** It can reopen a conversation after a restart (`session/load`). */
  readonly loadSession: boolean;
  readonly signInMethods: readonly SignInMethod[];
}

interface PendingPermission {
  readonly resolve: (response: RequestPermissionResponse) => void;
  readonly optionIds: readonly string[];
}

export class AcpSession {
  readonly kind = "acp" as const;
  private readonly child: ChildProcess;
  private connection: ClientConnection | undefined;
  private agentSessionId: string | undefined;
  private seq = 0;
  private turn: Promise<unknown> | undefined;
  private readonly permissions = new Map<string, PendingPermission>();
  private readonly exitListeners = new Set<(e: { exitCode: number; signal?: number; detail?: string }) => void>();
  private readonly events: AcpEventRecord[] = [];
  private failure: string | undefined;
  private exited = false;
  private stderrTail = "";
  private profile: AgentProfile = { prompt: { image: false, embeddedContext: false }, loadSession: false, signInMethods: [] };
  /** The running turn's watchdog: the time-out counts from the agent's last event. */
  private watchdog: NodeJS.Timeout | undefined;
  /** Set when Stop was pressed: the agent gets CANCEL_GRACE_MS to end the turn itself. */
  private stopping: { by: "learner" | "timeout"; timer: NodeJS.Timeout } | undefined;
  private readonly turnTimeoutMs: number;
  private readonly cancelGraceMs: number;
  private readonly signInHint: string | undefined;
  private readonly cwd: string;

  private constructor(
    opts: AcpSpawnOptions,
    private readonly record: (event: AcpEventRecord) => void,
  ) {
    this.turnTimeoutMs = opts.turnTimeoutMs ?? ACP_LIMITS.TURN_TIMEOUT_MS;
    this.cancelGraceMs = opts.cancelGraceMs ?? ACP_LIMITS.CANCEL_GRACE_MS;
    this.signInHint = opts.signInHint;
    this.cwd = opts.cwd;
    this.child = spawn(opts.command, [...opts.args], {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // its own process group, so kill() reaches its children too
    });
    this.child.stderr!.on("data", (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString("utf8")).slice(-2_000);
    });
    this.child.on("error", (error) => this.fail(`the program could not be run (${error.message})`));
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.clearTurnTimers();
      this.turn = undefined;
      this.cancelPermissions();
      const exitCode = code ?? (signal ? 128 : 1);
      for (const listener of this.exitListeners) listener({ exitCode, detail: this.failure });
    });
  }

  /** Spawns the agent and completes initialize + session/new, or throws AcpFailure. */
  static async start(opts: AcpSpawnOptions & { record: (event: AcpEventRecord) => void }): Promise<AcpSession> {
    const session = new AcpSession(opts, opts.record);
    await session.handshake(opts.handshakeTimeoutMs ?? ACP_LIMITS.HANDSHAKE_TIMEOUT_MS, async (connection, profile) => {
      if (opts.loadSessionId && profile.loadSession) {
        // The agent replays the conversation as session/update notifications: the chat shows it again.
        await connection.agent.request("session/load", { sessionId: opts.loadSessionId, cwd: opts.cwd, mcpServers: [] });
        return opts.loadSessionId;
      }
      const created = await connection.agent.request("session/new", { cwd: opts.cwd, mcpServers: [] });
      return created.sessionId;
    });
    return session;
  }

  /** What the agent said about itself at initialize (what it accepts in a prompt, how to sign in). */
  get agent(): AgentProfile {
    return this.profile;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get lastSeq(): number {
    return this.seq;
  }

  get sessionIdAtAgent(): string | undefined {
    return this.agentSessionId;
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** Events still in memory (the whole conversation of this process's lifetime). */
  eventsAfter(seq: number): AcpEventRecord[] {
    return this.events.filter((e) => e.seq > seq);
  }

  /**
   * Sends a learner message as a prompt, with the named attachments from the session folder as
   * content blocks. Refused while a turn is running, or when an attachment is missing or not accepted.
   */
  prompt(text: string, attachmentNames: readonly string[] = []): void {
    if (!this.connection || !this.agentSessionId) throw new AcpFailure("The tutor is not connected.");
    if (this.turn) throw new AcpFailure("The tutor is still answering: wait for it, or press Stop.");
    if (attachmentNames.length > ATTACHMENT_LIMITS.MAX_PER_MESSAGE)
      throw new AcpFailure(`Attach at most ${ATTACHMENT_LIMITS.MAX_PER_MESSAGE} files to one message.`);
    const blocks: ContentBlock[] = [{ type: "text", text }];
    const attachments: StoredAttachment[] = [];
    for (const name of attachmentNames) {
      const found = readAttachment(this.cwd, name);
      if (!found) throw new AcpFailure(`The attachment "${name}" is gone: attach it again.`);
      const accepted = found.stored.kind === "image" ? this.profile.prompt.image : this.profile.prompt.embeddedContext;
      if (!accepted) throw new AcpFailure(`This tutor does not accept ${found.stored.kind === "image" ? "images" : "files"}.`);
      attachments.push(found.stored);
      blocks.push(contentBlock(found.stored, found.bytes, found.file));
    }
    const sessionId = this.agentSessionId;
    this.emit("user_message", { text, ...(attachments.length ? { attachments } : {}) });
    const turn: Promise<unknown> = this.connection.agent.request("session/prompt", { sessionId, prompt: blocks }).then(
      (response) => this.endTurn(turn, { stopReason: response.stopReason }),
      (error: unknown) => {
        if (this.exited) return;
        const details = describeAgentError(error, this.profile.signInMethods, this.signInHint);
        this.endTurn(turn, { stopReason: "error", error: failureSentence(details), details });
      },
    );
    this.turn = turn;
    this.armWatchdog();
  }

  /**
   * Stop: asks the agent to cancel the turn; open permission questions are answered "cancelled". An
   * agent that does not end the turn within CANCEL_GRACE_MS (one that hangs on its provider) is not
   * waited for: the turn is ended here, marked stopped, and a late answer is ignored.
   */
  cancel(by: "learner" | "timeout" = "learner"): void {
    if (!this.connection || !this.agentSessionId || !this.turn || this.stopping) return;
    const turn = this.turn;
    this.cancelPermissions();
    this.stopping = {
      by,
      timer: setTimeout(() => this.endTurn(turn, { stopReason: "cancelled", stoppedBy: by, agentIgnoredStop: true }), this.cancelGraceMs),
    };
    void this.connection.agent.notify("session/cancel", { sessionId: this.agentSessionId }).catch(() => undefined);
  }

  /** The learner's answer to a permission question; false when that question is no longer open. */
  answerPermission(requestId: string, optionId: string): boolean {
    const pending = this.permissions.get(requestId);
    if (!pending || !pending.optionIds.includes(optionId)) return false;
    this.permissions.delete(requestId);
    this.emit("permission_outcome", { requestId, outcome: "selected", optionId });
    pending.resolve({ outcome: { outcome: "selected", optionId } });
    return true;
  }

  onExit(cb: (e: { exitCode: number; signal?: number; detail?: string }) => void): { dispose(): void } {
    this.exitListeners.add(cb);
    return { dispose: () => this.exitListeners.delete(cb) };
  }

  /** The conversation as readable text: the transcript kept on the row. */
  async snapshotTranscript(): Promise<string> {
    return renderTranscript(this.events);
  }

  kill(): void {
    if (this.exited || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, "SIGTERM");
    } catch {
      this.child.kill("SIGTERM");
    }
    const pid = this.child.pid;
    setTimeout(() => {
      if (!this.exited) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, 3_000).unref();
  }

  dispose(): void {
    this.connection?.close();
    this.kill();
  }

  // ---- internals ---------------------------------------------------------------------------------

  private async handshake(
    timeoutMs: number,
    openSession: (connection: ClientConnection, profile: AgentProfile) => Promise<string>,
  ): Promise<void> {
    const guard = new ProtocolLineGuard((line) =>
      this.fail(`the agent wrote text that is not the Agent Client Protocol on its output ("${line.slice(0, ACP_LIMITS.QUOTE_CHARS)}")`),
    );
    this.child.stdout!.pipe(guard);
    const app = client({ name: "studyloop" })
      .onNotification("session/update", ({ params }) => this.onUpdate(params.update))
      .onRequest(
        "session/request_permission",
        ({ params }) =>
          new Promise<RequestPermissionResponse>((resolve) => {
            const requestId = crypto.randomUUID();
            this.permissions.set(requestId, { resolve, optionIds: params.options.map((o) => o.optionId) });
            this.emit("permission_request", { requestId, toolCall: params.toolCall, options: params.options });
          }),
      );
    this.connection = app.connect(
      ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(guard) as ReadableStream<Uint8Array>),
    );

    const failed = new Promise<never>((_, reject) => {
      this.failWaiter = (message) => reject(new AcpFailure(message));
      this.child.once("exit", (code) =>
        reject(new AcpFailure(`the agent exited with code ${code ?? "?"} before it was ready${this.stderrHint()}`)),
      );
    });
    let timer: NodeJS.Timeout | undefined;
    let step: "initialize" | "opening the conversation" = "initialize";
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AcpFailure(
              `the agent did not answer the protocol handshake${step === "initialize" ? "" : ` (${step})`} within ${Math.round(timeoutMs / 1000)} s${this.stderrHint()}`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([
        (async () => {
          const init = await this.connection!.agent.request("initialize", {
            protocolVersion: PROTOCOL_VERSION,
            // Only what is implemented: no file system access, no terminals for the agent.
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            clientInfo: { name: "studyloop", version: "0.1.0" },
          });
          this.profile = profileOf(init);
          this.emit("agent_info", { ...this.profile });
          step = "opening the conversation";
          this.agentSessionId = await openSession(this.connection!, this.profile);
        })(),
        failed,
        timeout,
      ]);
    } catch (error) {
      this.kill();
      if (error instanceof AcpFailure) throw error;
      // Only at start is the error output's tail sure to be about this refusal. What the agent wrote
      // there before refusing may still be on its way (another pipe): read until it closes.
      await this.stderrClosed(ACP_LIMITS.STDERR_SETTLE_MS);
      const details = describeAgentError(error, this.profile.signInMethods, this.signInHint, this.stderrTail);
      throw new AcpFailure(`the agent refused to open a conversation: ${failureSentence(details)}`, details);
    } finally {
      clearTimeout(timer);
    }
    failed.catch(() => undefined);
    this.failWaiter = undefined;
  }

  private failWaiter: ((message: string) => void) | undefined;

  /** Resolves once the agent's error output has closed (all it wrote is in stderrTail), or after `ms`. */
  private stderrClosed(ms: number): Promise<void> {
    const stderr = this.child.stderr!;
    if (stderr.closed || stderr.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stderr.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      stderr.once("close", done);
    });
  }

  /** A protocol fault: remember why, stop the agent; the exit listeners report it. */
  private fail(message: string): void {
    if (this.failure) return;
    this.failure = message;
    if (this.failWaiter) this.failWaiter(message);
    this.emit("notice", { level: "error", text: message });
    this.kill();
  }

  private onUpdate(update: SessionUpdate): void {
    if (this.turn && !this.stopping) this.armWatchdog(); // the agent is alive: the time-out counts from now
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        this.emit(update.sessionUpdate, { text: update.content.type === "text" ? update.content.text : `[${update.content.type}]` });
        return;
      case "tool_call":
        this.emit("tool_call", {
          toolCallId: update.toolCallId,
          title: update.title,
          kind: update.kind ?? "other",
          status: update.status ?? "pending",
        });
        return;
      case "tool_call_update":
        this.emit("tool_call_update", {
          toolCallId: update.toolCallId,
          ...(update.title ? { title: update.title } : {}),
          ...(update.status ? { status: update.status } : {}),
        });
        return;
      case "plan":
        this.emit("plan", { entries: update.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority })) });
        return;
      default:
        return; // modes, commands, usage: nothing the learner needs in the chat
    }
  }

  /** Ends the running turn once (the agent's answer, an error, or Stop without an answer). */
  private endTurn(turn: Promise<unknown>, payload: Record<string, unknown>): void {
    if (this.turn !== turn) return; // already ended here; the agent's late answer changes nothing
    const stoppedBy = this.stopping?.by;
    this.clearTurnTimers();
    this.turn = undefined;
    this.emit("turn_end", payload.stopReason === "cancelled" && stoppedBy && !payload.stoppedBy ? { ...payload, stoppedBy } : payload);
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const turn = this.turn;
    this.watchdog = setTimeout(() => {
      if (this.turn !== turn || this.stopping) return;
      this.emit("notice", {
        level: "warning",
        text: `The tutor sent nothing for ${Math.round(this.turnTimeoutMs / 1000)} s, so StudyLoop stopped this turn.`,
      });
      this.cancel("timeout");
    }, this.turnTimeoutMs);
  }

  private clearTurnTimers(): void {
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    if (this.stopping) clearTimeout(this.stopping.timer);
    this.stopping = undefined;
  }

  private cancelPermissions(): void {
    for (const [requestId, pending] of this.permissions) {
      this.emit("permission_outcome", { requestId, outcome: "cancelled" });
      pending.resolve({ outcome: { outcome: "cancelled" } });
    }
    this.permissions.clear();
  }

  private emit(kind: AcpEventKind, payload: Record<string, unknown>): void {
    const event: AcpEventRecord = { seq: ++this.seq, kind, payload, at: new Date().toISOString() };
    this.events.push(event);
    this.record(event);
  }

  private stderrHint(): string {
    const last = lastStderrLine(this.stderrTail);
    return last ? `: ${last.slice(0, ACP_LIMITS.QUOTE_CHARS)}` : "";
  }
}

function profileOf(init: InitializeResponse): AgentProfile {
  const caps = init.agentCapabilities;
  return {
    ...(init.agentInfo?.name ? { name: init.agentInfo.title ?? init.agentInfo.name } : {}),
    ...(init.agentInfo?.version ? { version: init.agentInfo.version } : {}),
    prompt: { image: caps?.promptCapabilities?.image === true, embeddedContext: caps?.promptCapabilities?.embeddedContext === true },
    loadSession: caps?.loadSession === true,
    signInMethods: readSignInMethods(init.authMethods),
  };
}
