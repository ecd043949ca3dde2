// Why a session command was refused, as a code and a sentence for the learner. Domain code throws
// these; server/api maps codes to HTTP statuses and the CLI to exit codes: neither lives here.

export const SESSION_ERROR_CODES = [
  "agent-unknown",
  "agent-missing",
  "no-acp",
  "already-active",
  "nothing-to-end",
  "not-found",
  "not-attachable",
  "ended",
  "wrong-transport",
  "token-invalid",
  "token-ended",
  "startup-failed",
  "not-continuable",
] as const;

export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

// Route handlers are bundled apart from the custom server, so this class exists twice at run time:
// recognise it by a registered symbol, never by instanceof.
const BRAND = Symbol.for("studyloop.SessionError");

export class SessionError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: SessionErrorCode,
    message: string,
    /** Facts a page can use (the holder's session, a field name, the agent's last lines). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "SessionError";
  }
}

export function isSessionError(error: unknown): error is SessionError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}
