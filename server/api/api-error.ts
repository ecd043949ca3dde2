// Errors that carry an HTTP status and a sentence for the learner. Expected refusals are these;
// anything else is a fault, logged with its cause and answered with a plain 500.

import { isRefusal, type RefusalKind } from "../errors/refusal.ts";
import { isSessionError, type SessionErrorCode } from "../sessions/session-errors.ts";
import { classifyDbFault, dbFaultSentence, isDbUnavailable } from "../db/db-faults.ts";

// Route handlers are bundled apart from the custom server, so this class exists twice at run time:
// recognise it by a registered symbol, never by instanceof.
const BRAND = Symbol.for("studyloop.ApiError");

export class ApiError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function isApiError(error: unknown): error is ApiError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, message, extra);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new ApiError(409, message, extra);

/** Each study or card refusal's HTTP status: the one place a Refusal's kind becomes a status. */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
};

/** Each session refusal's HTTP status: the one place a SessionError code becomes a status. */
const SESSION_STATUS: Record<SessionErrorCode, number> = {
  "agent-unknown": 400,
  "no-acp": 400,
  "agent-missing": 503,
  "already-active": 409,
  "nothing-to-end": 404,
  "not-found": 404,
  "not-attachable": 409,
  ended: 410,
  "wrong-transport": 409,
  "token-invalid": 401,
  "token-ended": 409,
  "startup-failed": 502,
  "not-continuable": 409,
};

/**
 * The refusal an error means at the HTTP edge: an ApiError as it is, a Refusal by its kind, a SessionError by its code, a
 * database fault as 503 with its sentence (and Retry-After); null for a real fault (500, logged).
 */
export function toApiError(error: unknown): ApiError | null {
  if (isApiError(error)) return error;
  if (isRefusal(error)) return new ApiError(REFUSAL_STATUS[error.kind], error.message, error.extra);
  if (isSessionError(error)) return new ApiError(SESSION_STATUS[error.code], error.message, { code: error.code, ...error.extra });
  if (isDbUnavailable(error)) return new ApiError(503, error.message, { code: error.code, fault: error.kind });
  const kind = classifyDbFault(error);
  if (kind) return new ApiError(503, dbFaultSentence(kind, "do that"), { code: "db-unavailable", fault: kind });
  return null;
}
