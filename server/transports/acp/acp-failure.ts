// What an agent's refusal means for the learner: its JSON-RPC error (code, message, data) and the
// sign-in methods it offered at initialize, turned into one sentence that names the fix. Pure.

/** A sign-in method as the agent listed it in its initialize answer. */
export interface SignInMethod {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /** The environment variables it signs in with (an ACP `env_var` method, as codex-acp lists them). */
  readonly vars?: readonly string[];
  /** A method the client must run in a terminal itself (ACP `terminal`): never passed to authenticate. */
  readonly terminal?: true;
}

/** Everything the learner sees about a refusal; stored with the event and sent with a 502. */
export interface AgentFailureDetails {
  /** The agent's own message, as it gave it. */
  readonly agentMessage: string;
  readonly code?: number;
  /** The error's `data`, as text, when the agent sent any. */
  readonly data?: string;
  /** The agent wants the learner to sign in (or set a key). */
  readonly needsSignIn: boolean;
  readonly signInMethods: readonly SignInMethod[];
  /** How to sign in to this agent, when StudyLoop knows it (built-in agents). */
  readonly signInHint?: string;
  /**
   * The agent's own last line on its error output before it refused: often the reason a generic
   * refusal ("Internal error") leaves out, e.g. claude-code-acp's Claude Code refusing to run as root.
   */
  readonly agentStderr?: string;
  /**
   * What StudyLoop already did to sign in (passed a key, signed in with it), said instead of the hint:
   * a refusal never repeats advice the learner already followed.
   */
  readonly tried?: string;
}

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED_CODE = -32000;
const AUTH_WORDS = /auth|sign[ -]?in|log[ -]?in|api[ _-]?key|credential|unauthori[sz]ed|not logged|token/i;
const DATA_MAX_CHARS = 600;
const STDERR_LINE_MAX_CHARS = 300;
// The ACP SDK logs each request it failed as "Error handling request {request} {error}" over many
// lines; that repeats the refusal, so the line worth quoting is the last one outside such a log.
const SDK_REQUEST_LOG = /^Error handling request\b/;

/** The last line an agent wrote on stderr that is not the ACP SDK's log of a failed request. */
export function lastStderrLine(tail: string): string | undefined {
  return lastStderrLines(tail, 1)[0];
}

/** The last `count` such lines, oldest first, each clipped. */
export function lastStderrLines(tail: string, count: number): string[] {
  const lines: string[] = [];
  let inLog = false;
  // Escape sequences (a coloured log) are not part of what the line says.
  for (const raw of tail.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "").split("\n")) {
    const line = raw.trim();
    if (SDK_REQUEST_LOG.test(line)) inLog = true;
    else if (inLog && raw.startsWith("}")) {
      if (raw.trimEnd() === "}") inLog = false;
    } else if (!inLog && line) lines.push(line.length > STDERR_LINE_MAX_CHARS ? `${line.slice(0, STDERR_LINE_MAX_CHARS)}…` : line);
  }
  return lines.slice(-count);
}

export function describeAgentError(
  error: unknown,
  signInMethods: readonly SignInMethod[],
  signInHint?: string,
  stderrTail = "",
  /** What StudyLoop did to sign in before this refusal (sign-in-plan.ts), if anything. */
  tried?: string,
): AgentFailureDetails {
  const { message, code, data } = errorParts(error);
  const dataText = data === undefined || data === null ? undefined : clip(typeof data === "string" ? data : JSON.stringify(data));
  const needsSignIn = isAuthRefusal(error);
  return {
    agentMessage: message || "no reason given",
    ...(code !== undefined ? { code } : {}),
    ...(dataText ? { data: dataText } : {}),
    needsSignIn,
    signInMethods: needsSignIn ? signInMethods : [],
    ...(needsSignIn && tried ? { tried } : needsSignIn && signInHint ? { signInHint } : {}),
    ...withStderr(lastStderrLine(stderrTail)),
  };
}

/** The agent refused for want of sign-in (ACP's code, or words about it in the message or data). */
export function isAuthRefusal(error: unknown): boolean {
  const { message, code, data } = errorParts(error);
  const dataText = data === undefined || data === null ? undefined : typeof data === "string" ? data : JSON.stringify(data);
  return code === AUTH_REQUIRED_CODE || AUTH_WORDS.test(message) || (dataText !== undefined && AUTH_WORDS.test(dataText));
}

/** The sign-in methods a refusal's data lists (some agents put them there rather than in initialize). */
export function signInMethodsInError(error: unknown): SignInMethod[] {
  const { data } = errorParts(error);
  return data && typeof data === "object" ? readSignInMethods((data as { authMethods?: unknown }).authMethods) : [];
}

function withStderr(line: string | undefined): { agentStderr?: string } {
  return line ? { agentStderr: line } : {};
}

/** One paragraph for a start failure (the start form) or a failed turn (the chat). */
export function failureSentence(details: AgentFailureDetails): string {
  const said = `the agent said: "${details.agentMessage}"`;
  const parts = [details.data ? `${said} (details: ${details.data}).` : /[.!?]$/.test(details.agentMessage) ? said : `${said}.`];
  if (details.needsSignIn && details.tried) {
    parts.push(details.tried);
  } else if (details.needsSignIn) {
    if (details.signInMethods.length > 0) {
      parts.push(`It offers these ways to sign in: ${details.signInMethods.map(methodText).join("; ")}.`);
    }
    parts.push(details.signInHint ?? "Sign in to the agent in a terminal on this machine, then start again.");
  }
  if (details.agentStderr) parts.push(`Its last words on its error output: "${details.agentStderr}"`);
  return parts.join(" ");
}

export function methodText(method: SignInMethod): string {
  return method.description ? `${method.name} (${method.description})` : method.name;
}

/** The sign-in methods of an initialize answer, whatever shape a given agent version sends. */
export function readSignInMethods(raw: unknown): SignInMethod[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m: unknown) => {
    if (!m || typeof m !== "object") return [];
    const { id, name, description, type, vars } = m as Record<string, unknown>;
    if (typeof id !== "string" || typeof name !== "string") return [];
    const names = Array.isArray(vars)
      ? vars.flatMap((v: unknown) => {
          const n = (v as { name?: unknown } | null)?.name;
          return typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]{0,100}$/.test(n) ? [n] : [];
        })
      : [];
    return [
      {
        id,
        name,
        ...(typeof description === "string" && description ? { description } : {}),
        ...(type === "env_var" && names.length > 0 ? { vars: names } : {}),
        ...(type === "terminal" ? { terminal: true as const } : {}),
      },
    ];
  });
}

/** The agent's own message of a refusal, as the learner sees it quoted. */
export function errorMessage(error: unknown): string {
  return errorParts(error).message || "no reason given";
}

function errorParts(error: unknown): { message: string; code?: number; data?: unknown } {
  if (error && typeof error === "object") {
    const e = error as { message?: unknown; code?: unknown; data?: unknown };
    return {
      message: typeof e.message === "string" ? e.message : String(error),
      ...(typeof e.code === "number" ? { code: e.code } : {}),
      ...(e.data !== undefined ? { data: e.data } : {}),
    };
  }
  return { message: String(error) };
}

function clip(text: string): string {
  return text.length > DATA_MAX_CHARS ? `${text.slice(0, DATA_MAX_CHARS)}…` : text;
}

/**
 * The agent broke the protocol or could not start: the message is for the learner. Here, not in
 * acp-session.ts, so that recognising one does not load the protocol's SDK (acp-transport.ts loads it
 * when a chat session starts).
 */
export class AcpFailure extends Error {
  constructor(
    message: string,
    /** The agent's own refusal, when it gave one: its message, data and sign-in methods. */
    readonly details?: AgentFailureDetails,
  ) {
    super(message);
  }
}
