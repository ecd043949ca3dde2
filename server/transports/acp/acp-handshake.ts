// Opening an ACP conversation: initialize (the agent's profile), then session/new or session/load, raced
// against the agent's exit, a protocol fault and a time-out. Every way it fails becomes an AcpFailure.
import type { ChildProcess } from "node:child_process";
import { PROTOCOL_VERSION, type ClientConnection, type InitializeResponse } from "@agentclientprotocol/sdk";
import {
  AcpFailure,
  describeAgentError,
  errorMessage,
  failureSentence,
  lastStderrLine,
  readSignInMethods,
  type SignInMethod,
} from "./acp-failure.ts";
import { handshakeTimeoutMessage } from "./handshake-timeout.ts";
import { triedSentence, type SignInAttempt } from "./sign-in-plan.ts";
import { ACP_LIMITS } from "./acp-events.ts";
import type { PromptSupport } from "./attachments.ts";

/** What the agent said about itself at initialize; recorded as the first event of the chat. */
export interface AgentProfile {
  readonly name?: string;
  readonly version?: string;
  readonly prompt: PromptSupport;
  /** It can reopen a conversation after a restart (`session/load`). */
  readonly loadSession: boolean;
  readonly signInMethods: readonly SignInMethod[];
}

/** What the handshake needs of the session it opens. */
export interface HandshakeHost {
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  readonly signInHint: string | undefined;
  /** The tail of what the agent has written on its error output so far. */
  stderrTail(): string;
  /** What was done to sign the agent in so far (acp-sign-in.ts), for a refusal's sentence. */
  signInAttempt?(): SignInAttempt | undefined;
  /** initialize answered: the session keeps the profile and records it. */
  onProfile(profile: AgentProfile): void;
  /** Who hears a protocol fault while the handshake runs (undefined once it succeeded). */
  onFault(listener: ((message: string) => void) | undefined): void;
  kill(): void;
}

/** Returns the agent's id for the conversation `openSession` opened; else kills the agent and throws AcpFailure. */
export async function handshake(
  host: HandshakeHost,
  timeoutMs: number,
  openSession: (connection: ClientConnection, profile: AgentProfile) => Promise<string>,
): Promise<string> {
  const failed = new Promise<never>((_, reject) => {
    host.onFault((message) => reject(new AcpFailure(message)));
    host.child.once("exit", (code) =>
      reject(new AcpFailure(`the agent exited with code ${code ?? "?"} before it was ready${stderrHint(host.stderrTail())}`)),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  let step: "initialize" | "opening the conversation" = "initialize";
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AcpFailure(handshakeTimeoutMessage(step, Math.round(timeoutMs / 1000), host.stderrTail()))),
      timeoutMs,
    );
  });
  let signInMethods: readonly SignInMethod[] = [];
  let sessionId = "";
  try {
    await Promise.race([
      (async () => {
        const init = await host.connection.agent.request("initialize", {
          protocolVersion: PROTOCOL_VERSION,
          // Only what is implemented: no file system access, no terminals for the agent.
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: { name: "studyloop", version: "0.1.0" },
        });
        const profile = profileOf(init);
        signInMethods = profile.signInMethods;
        host.onProfile(profile);
        step = "opening the conversation";
        sessionId = await openSession(host.connection, profile);
      })(),
      failed,
      timeout,
    ]);
  } catch (error) {
    host.kill();
    if (error instanceof AcpFailure) throw error;
    // Only at start is the error output's tail sure to be about this refusal. What the agent wrote
    // there before refusing may still be on its way (another pipe): read until it closes.
    await stderrClosed(host.child, ACP_LIMITS.STDERR_SETTLE_MS);
    const tried = triedSentence(host.signInAttempt?.(), errorMessage(error));
    const details = describeAgentError(error, signInMethods, host.signInHint, host.stderrTail(), tried);
    throw new AcpFailure(`the agent refused to open a conversation: ${failureSentence(details)}`, details);
  } finally {
    clearTimeout(timer);
  }
  failed.catch(() => undefined);
  host.onFault(undefined);
  return sessionId;
}

export function profileOf(init: InitializeResponse): AgentProfile {
  const caps = init.agentCapabilities;
  return {
    ...(init.agentInfo?.name ? { name: init.agentInfo.title ?? init.agentInfo.name } : {}),
    ...(init.agentInfo?.version ? { version: init.agentInfo.version } : {}),
    prompt: { image: caps?.promptCapabilities?.image === true, embeddedContext: caps?.promptCapabilities?.embeddedContext === true },
    loadSession: caps?.loadSession === true,
    signInMethods: readSignInMethods(init.authMethods),
  };
}

function stderrHint(tail: string): string {
  const last = lastStderrLine(tail);
  return last ? `: ${last.slice(0, ACP_LIMITS.QUOTE_CHARS)}` : "";
}

/** Resolves once the agent's error output has closed (all it wrote is in the tail), or after `ms`. */
function stderrClosed(child: ChildProcess, ms: number): Promise<void> {
  const stderr = child.stderr!;
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
