// One agent speaking the Agent Client Protocol over stdio: spawn, prompts, Stop and exit, composing the
// handshake (acp-handshake.ts), the running turn and its clocks (TurnKeeper) and the permission questions
// (PermissionQuestions). Every event is numbered and handed to `record` in arrival order; the owner
// stores it before anyone sees it.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, type ClientConnection } from "@agentclientprotocol/sdk";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpFailure, describeAgentError, errorMessage, failureSentence } from "./acp-failure.ts";
import { openConversation } from "./acp-sign-in.ts";
import { triedSentence, type SignInAttempt } from "./sign-in-plan.ts";
import { ACP_LIMITS, type AcpEventKind, type AcpEventRecord } from "./acp-events.ts";
import { handshake, type AgentProfile, type HandshakeHost } from "./acp-handshake.ts";
import { chatEventOf } from "./acp-updates.ts";
import { ATTACHMENT_LIMITS, contentBlock, readAttachment, type StoredAttachment } from "./attachments.ts";
import { renderTranscript } from "./acp-transcript.ts";
import { PermissionQuestions } from "./permission-questions.ts";
import { ProtocolLineGuard } from "./protocol-line-guard.ts";
import { TurnKeeper } from "./turn-keeper.ts";

export { AcpFailure };
export type { AgentProfile };

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
  /** Variables passed to this agent on purpose (env.pass) and set: a key among them is signed in with. */
  readonly passedVariables?: readonly string[];
}

export class AcpSession {
  readonly kind = "acp" as const;
  private readonly child: ChildProcess;
  private connection: ClientConnection | undefined;
  private agentSessionId: string | undefined;
  private seq = 0;
  private readonly turns: TurnKeeper;
  private readonly permissions = new PermissionQuestions((kind, payload) => this.emit(kind, payload));
  private readonly exitListeners = new Set<(e: { exitCode: number; signal?: number; detail?: string }) => void>();
  private readonly events: AcpEventRecord[] = [];
  private failure: string | undefined;
  private exited = false;
  private stderrTail = "";
  private profile: AgentProfile = { prompt: { image: false, embeddedContext: false }, loadSession: false, signInMethods: [] };
  /** Set while the handshake runs: a protocol fault fails the start. */
  private failWaiter: ((message: string) => void) | undefined;
  private readonly signInHint: string | undefined;
  /** What was done to sign the agent in at the start (acp-sign-in.ts). */
  private signInAttempt: SignInAttempt | undefined;
  private readonly cwd: string;

  private constructor(
    opts: AcpSpawnOptions,
    private readonly record: (event: AcpEventRecord) => void,
  ) {
    this.turns = new TurnKeeper(opts.turnTimeoutMs ?? ACP_LIMITS.TURN_TIMEOUT_MS, opts.cancelGraceMs ?? ACP_LIMITS.CANCEL_GRACE_MS, {
      silent: () => {
        this.emit("notice", {
          level: "warning",
          text: `The tutor sent nothing for ${Math.round(this.turns.timeoutMs / 1000)} s, so StudyLoop stopped this turn.`,
        });
        this.cancel("timeout");
      },
      ended: (payload) => this.emit("turn_end", payload),
    });
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
      this.turns.drop();
      this.permissions.cancelAll();
      const exitCode = code ?? (signal ? 128 : 1);
      for (const listener of this.exitListeners) listener({ exitCode, detail: this.failure });
    });
  }

  /** Spawns the agent and completes initialize + session/new, or throws AcpFailure. */
  static async start(opts: AcpSpawnOptions & { record: (event: AcpEventRecord) => void }): Promise<AcpSession> {
    const session = new AcpSession(opts, opts.record);
    const host: HandshakeHost = {
      child: session.child,
      connection: session.connect(),
      signInHint: session.signInHint,
      stderrTail: () => session.stderrTail,
      signInAttempt: () => session.signInAttempt,
      onProfile: (profile) => {
        session.profile = profile;
        session.emit("agent_info", { ...profile });
      },
      onFault: (listener) => {
        session.failWaiter = listener;
      },
      kill: () => session.kill(),
    };
    const timeoutMs = opts.handshakeTimeoutMs ?? ACP_LIMITS.HANDSHAKE_TIMEOUT_MS;
    session.agentSessionId = await handshake(host, timeoutMs, (connection, profile) =>
      openConversation(
        connection,
        profile,
        {
          cwd: opts.cwd,
          passedVariables: opts.passedVariables ?? [],
          ...(opts.loadSessionId ? { loadSessionId: opts.loadSessionId } : {}),
        },
        (attempt) => (session.signInAttempt = attempt),
      ),
    );
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
    return this.turns.running;
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
    if (this.turns.running) throw new AcpFailure("The tutor is still answering: wait for it, or press Stop.");
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
      (response) => this.turns.end(turn, { stopReason: response.stopReason }),
      (error: unknown) => {
        if (this.exited) return;
        const tried = triedSentence(this.signInAttempt, errorMessage(error));
        const details = describeAgentError(error, this.profile.signInMethods, this.signInHint, "", tried);
        this.turns.end(turn, { stopReason: "error", error: failureSentence(details), details });
      },
    );
    this.turns.begin(turn);
  }

  /**
   * Stop: asks the agent to cancel the turn; open permission questions are answered "cancelled". An
   * agent that does not end the turn within CANCEL_GRACE_MS (one that hangs on its provider) is not
   * waited for: the turn is ended here, marked stopped, and a late answer is ignored.
   */
  cancel(by: "learner" | "timeout" = "learner"): void {
    if (!this.connection || !this.agentSessionId || !this.turns.running || this.turns.stopping) return;
    this.permissions.cancelAll();
    this.turns.stop(by);
    void this.connection.agent.notify("session/cancel", { sessionId: this.agentSessionId }).catch(() => undefined);
  }

  /** The learner's answer to a permission question; false when that question is no longer open. */
  answerPermission(requestId: string, optionId: string): boolean {
    return this.permissions.answer(requestId, optionId);
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

  /** The SDK's client over the agent's stdio, behind the guard that lets only protocol lines through. */
  private connect(): ClientConnection {
    const guard = new ProtocolLineGuard((line) =>
      this.fail(`the agent wrote text that is not the Agent Client Protocol on its output ("${line.slice(0, ACP_LIMITS.QUOTE_CHARS)}")`),
    );
    this.child.stdout!.pipe(guard);
    const app = client({ name: "studyloop" })
      .onNotification("session/update", ({ params }) => this.onUpdate(params.update))
      .onRequest("session/request_permission", ({ params }) => this.permissions.ask(params));
    this.connection = app.connect(
      ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(guard) as ReadableStream<Uint8Array>),
    );
    return this.connection;
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
    this.turns.alive(); // the agent is alive: the time-out counts from now
    const event = chatEventOf(update);
    if (event) this.emit(event.kind, event.payload);
  }

  private emit(kind: AcpEventKind, payload: Record<string, unknown>): void {
    const event: AcpEventRecord = { seq: ++this.seq, kind, payload, at: new Date().toISOString() };
    this.events.push(event);
    this.record(event);
  }
}
