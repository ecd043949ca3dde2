// One agent speaking the Agent Client Protocol over stdio: spawn, handshake, prompts, cancel and
// permission questions answered by the learner. Every event is numbered and handed to `record` in
// arrival order; the owner stores it before anyone sees it.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, PROTOCOL_VERSION, type ClientConnection } from "@agentclientprotocol/sdk";
import type { RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { ACP_LIMITS, type AcpEventKind, type AcpEventRecord } from "./acp-events.ts";
import { ProtocolLineGuard } from "./protocol-line-guard.ts";

export interface AcpSpawnOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly handshakeTimeoutMs?: number;
  /** Continue this conversation with session/load when the agent advertises loadSession (else session/new). */
  readonly loadSessionId?: string;
}

/** The agent broke the protocol or could not start: the message is for the learner. */
export class AcpFailure extends Error {}

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

  private constructor(
    opts: AcpSpawnOptions,
    private readonly record: (event: AcpEventRecord) => void,
  ) {
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
      this.cancelPermissions();
      const exitCode = code ?? (signal ? 128 : 1);
      for (const listener of this.exitListeners) listener({ exitCode, detail: this.failure });
    });
  }

  /** Spawns the agent and completes initialize + session/new, or throws AcpFailure. */
  static async start(opts: AcpSpawnOptions & { record: (event: AcpEventRecord) => void }): Promise<AcpSession> {
    const session = new AcpSession(opts, opts.record);
    await session.handshake(opts.cwd, opts.handshakeTimeoutMs ?? ACP_LIMITS.HANDSHAKE_TIMEOUT_MS, opts.loadSessionId);
    return session;
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

  /** Sends a learner message as a prompt. Refused while a turn is running. */
  prompt(text: string): void {
    if (!this.connection || !this.agentSessionId) throw new AcpFailure("The tutor is not connected.");
    if (this.turn) throw new AcpFailure("The tutor is still answering: wait for it, or press Stop.");
    const sessionId = this.agentSessionId;
    this.emit("user_message", { text });
    this.turn = this.connection.agent
      .request("session/prompt", { sessionId, prompt: [{ type: "text", text }] })
      .then(
        (response) => this.emit("turn_end", { stopReason: response.stopReason }),
        (error: unknown) => {
          if (!this.exited) this.emit("turn_end", { stopReason: "error", error: errorText(error) });
        },
      )
      .finally(() => {
        this.turn = undefined;
      });
  }

  /** Stop: asks the agent to cancel the turn; open permission questions are answered "cancelled". */
  cancel(): void {
    if (!this.connection || !this.agentSessionId || !this.turn) return;
    this.cancelPermissions();
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

  private async handshake(cwd: string, timeoutMs: number, loadSessionId?: string): Promise<void> {
    const guard = new ProtocolLineGuard((line) =>
      this.fail(`the agent wrote text that is not the Agent Client Protocol on its output ("${line.slice(0, ACP_LIMITS.QUOTE_CHARS)}")`),
    );
    this.child.stdout!.pipe(guard);
    const app = client({ name: "studyloop" })
      .onNotification("session/update", ({ params }) => this.onUpdate(params.update))
      .onRequest("session/request_permission", ({ params }) =>
        new Promise<RequestPermissionResponse>((resolve) => {
          const requestId = crypto.randomUUID();
          this.permissions.set(requestId, { resolve, optionIds: params.options.map((o) => o.optionId) });
          this.emit("permission_request", { requestId, toolCall: params.toolCall, options: params.options });
        }),
      );
    this.connection = app.connect(ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(guard) as ReadableStream<Uint8Array>));

    const failed = new Promise<never>((_, reject) => {
      this.failWaiter = (message) => reject(new AcpFailure(message));
      this.child.once("exit", (code) => reject(new AcpFailure(`the agent exited with code ${code ?? "?"} before it was ready${this.stderrHint()}`)));
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AcpFailure(`the agent did not answer the protocol handshake within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
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
          if (loadSessionId && init.agentCapabilities?.loadSession) {
            // The agent replays the conversation as session/update notifications: the chat shows it again.
            await this.connection!.agent.request("session/load", { sessionId: loadSessionId, cwd, mcpServers: [] });
            this.agentSessionId = loadSessionId;
            return;
          }
          const created = await this.connection!.agent.request("session/new", { cwd, mcpServers: [] });
          this.agentSessionId = created.sessionId;
        })(),
        failed,
        timeout,
      ]);
    } catch (error) {
      this.kill();
      throw error instanceof AcpFailure ? error : new AcpFailure(`the agent refused the handshake (${errorText(error)})`);
    } finally {
      clearTimeout(timer);
    }
    failed.catch(() => undefined);
    this.failWaiter = undefined;
  }

  private failWaiter: ((message: string) => void) | undefined;

  /** A protocol fault: remember why, stop the agent; the exit listeners report it. */
  private fail(message: string): void {
    if (this.failure) return;
    this.failure = message;
    if (this.failWaiter) this.failWaiter(message);
    this.emit("notice", { level: "error", text: message });
    this.kill();
  }

  private onUpdate(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        this.emit(update.sessionUpdate, { text: update.content.type === "text" ? update.content.text : `[${update.content.type}]` });
        return;
      case "tool_call":
        this.emit("tool_call", { toolCallId: update.toolCallId, title: update.title, kind: update.kind ?? "other", status: update.status ?? "pending" });
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
    const last = this.stderrTail.trim().split("\n").pop();
    return last ? `: ${last.slice(0, ACP_LIMITS.QUOTE_CHARS)}` : "";
  }
}

/** Plain text of a conversation, for the transcript column and the history search. */
export function renderTranscript(events: readonly AcpEventRecord[]): string {
  const out: string[] = [];
  let speaking: "agent" | "thought" | null = null;
  for (const e of events) {
    const p = e.payload;
    if (e.kind === "agent_message_chunk" || e.kind === "agent_thought_chunk") {
      const who = e.kind === "agent_message_chunk" ? "agent" : "thought";
      if (speaking !== who) out.push(who === "agent" ? "\nTutor: " : "\n(thinking) ");
      speaking = who;
      out.push(String(p.text ?? ""));
      continue;
    }
    speaking = null;
    if (e.kind === "user_message") out.push(`\n\nYou: ${String(p.text ?? "")}\n`);
    else if (e.kind === "tool_call") out.push(`\n[tool] ${String(p.title ?? "")} (${String(p.status ?? "")})`);
    else if (e.kind === "permission_request") out.push(`\n[permission asked]`);
    else if (e.kind === "permission_outcome") out.push(`\n[permission: ${String(p.optionId ?? p.outcome)}]`);
    else if (e.kind === "notice") out.push(`\n[${String(p.text ?? "")}]`);
  }
  return out.join("").trim();
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return String(error);
}
