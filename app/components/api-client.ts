// The browser's one way to call StudyLoop's API: JSON (or a file) in, JSON out, and the sentence to
// show the learner when the server refused or could not be reached. Never throws. Browser-safe: it
// imports nothing (no node:*, no server code), so any page may use it.

/** The server's answer: its JSON body, or the sentence to show (with its status when it answered). */
export type ApiAnswer<T> =
  | { readonly ok: true; readonly status: number; readonly value: T }
  | {
      readonly ok: false;
      /** Absent when no answer arrived: the server could not be reached, or stopped mid-answer. */
      readonly status?: number;
      readonly error: string;
      /** The refusal's JSON body, when it had one (some refusals carry more than their sentence). */
      readonly body?: Readonly<Record<string, unknown>>;
    };

export type ApiRequest = {
  /** GET, or POST when a body or file is sent. */
  readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** "no-store" for reads that must not come from the browser's cache. */
  readonly cache?: "no-store";
  /** The sentence when the server refuses without one of its own (default: refusedSentence). */
  readonly refused?: (status: number) => string;
  /** The sentence when the server cannot be reached (default: UNREACHABLE). */
  readonly unreachable?: string;
} & Sent;

/**
 * What is sent, if anything: `body` as JSON (content-type: application/json), or `file` as it is
 * (application/octet-stream: a file the learner picked). Neither: no body, no content type.
 */
type Sent = { readonly body?: unknown; readonly file?: never } | { readonly file: Blob; readonly body?: never };

export const UNREACHABLE = "Could not reach the StudyLoop server. Is it still running? Try again in a moment.";

/** What to tell the learner when the server refused without a sentence of its own (a proxy's page, a crash). */
export function refusedSentence(status: number): string {
  if (status === 401 || status === 403)
    return `The StudyLoop server did not let this browser in (HTTP ${status}). Reload the page; if it asks, pair this device again.`;
  if (status === 404)
    return "The StudyLoop server no longer has what this page asked for (HTTP 404). Reload the page to see what is there now.";
  if (status === 409) return "That changed on the StudyLoop server meanwhile (HTTP 409). Reload the page, then try again.";
  if (status === 413) return "That is too large for the StudyLoop server (HTTP 413). Try again with something smaller.";
  if (status >= 500)
    return `The StudyLoop server could not answer (HTTP ${status}). Try again in a moment; if it keeps happening, look at the server's log.`;
  return `The StudyLoop server refused the request (HTTP ${status}). Reload the page and try again.`;
}

const NOT_JSON = Symbol("not JSON");

/** Calls the API at `url`; resolves with its JSON answer or the sentence to show. Never throws (the server may be away). */
export async function callApi<T = unknown>(url: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> {
  const unreachable: ApiAnswer<T> = { ok: false, error: request.unreachable ?? UNREACHABLE };
  let res: Response;
  try {
    res = await fetch(url, requestInit(request));
  } catch {
    return unreachable;
  }
  const value: unknown = await res.json().catch(() => NOT_JSON);
  // Every answer of the API is JSON: a 2xx that is not did not arrive whole (the server stopped mid-answer).
  if (res.ok) return value === NOT_JSON ? unreachable : { ok: true, status: res.status, value: value as T };
  const body = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const said = typeof body?.error === "string" && body.error.trim() ? body.error : null;
  return { ok: false, status: res.status, error: said ?? (request.refused ?? refusedSentence)(res.status), ...(body ? { body } : {}) };
}

function requestInit({ method, cache, body, file }: ApiRequest): RequestInit {
  const sent: RequestInit =
    file !== undefined
      ? { headers: { "content-type": "application/octet-stream" }, body: file }
      : body !== undefined
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
        : {};
  return { method: method ?? (sent.body === undefined ? "GET" : "POST"), ...sent, ...(cache ? { cache } : {}) };
}
