// How `studyloop park` and `studyloop topic` reach the server from inside a session: the agent's
// environment carries the server's URL and the session's token (server/config/agent-env.ts);
// requests go out with the token as a Bearer token, so the server files them under that session.
import { UsageError } from "./options.ts";

/** A request to the local server answers well within this, or something is wrong. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface SessionEnv {
  readonly url: string;
  readonly token: string;
}

/** Reads the session's URL and token, or explains that the command only works inside a session. */
export function sessionEnv(command: string, env: Readonly<Record<string, string | undefined>> = process.env): SessionEnv {
  const url = env.STUDYLOOP_URL?.trim();
  const token = env.STUDYLOOP_SESSION_TOKEN?.trim();
  if (!url || !token) {
    throw new UsageError(
      `"studyloop ${command}" works inside a StudyLoop study session, where STUDYLOOP_URL and STUDYLOOP_SESSION_TOKEN are set for the tutor; they are not set here. Start a session on the Study page and run it from the tutor's terminal, or name the data with --data-dir D (or --database URL) to write to its running session yourself.`,
    );
  }
  if (!/^https?:\/\//.test(url)) throw new UsageError(`STUDYLOOP_URL must be the server's http(s) address, not "${url}".`);
  return { url: url.replace(/\/+$/, ""), token };
}

/** The server said no: its sentence, and the exit code (2 for bad input, 1 otherwise). */
export class RefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "RefusedError";
  }
}

export type Fetch = typeof fetch;

/** GETs a path with the session token; returns the answer's body, or throws with the server's sentence. */
export async function getFromSession(session: SessionEnv, path: string, fetchImpl: Fetch = fetch): Promise<unknown> {
  return answerOf(await send(session, path, { method: "GET", headers: { authorization: `Bearer ${session.token}` } }, fetchImpl));
}

/** POSTs JSON with the session token; returns the answer's body, or throws with the server's sentence. */
export async function postToSession(session: SessionEnv, path: string, body: unknown, fetchImpl: Fetch = fetch): Promise<unknown> {
  const init = {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${session.token}` },
    body: JSON.stringify(body),
  };
  return answerOf(await send(session, path, init, fetchImpl));
}

async function send(session: SessionEnv, path: string, init: RequestInit, fetchImpl: Fetch): Promise<Response> {
  try {
    return await fetchImpl(`${session.url}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const inner = (error as { cause?: { code?: string; message?: string } }).cause;
    const cause = inner?.code ?? inner?.message ?? (error instanceof Error ? error.message : String(error));
    throw new Error(`Could not reach the StudyLoop server at ${session.url} (${cause}): is it still running? Nothing was written.`);
  }
}

async function answerOf(res: Response): Promise<unknown> {
  const answer = (await res.json().catch(() => ({}))) as { error?: string };
  if (res.ok) return answer;
  const sentence = answer.error ?? `The server refused the request (HTTP ${res.status}).`;
  if (res.status === 400 || res.status === 413 || res.status === 415) throw new UsageError(sentence);
  throw new RefusedError(sentence, res.status);
}
