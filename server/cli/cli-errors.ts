// Refusals from the session core and the database as the CLI reports them: one sentence on stderr
// and an exit code. The one place a SessionError code or a database fault becomes an exit code.
import { SettingsError } from "../config/settings.ts";
import { isDbUnavailable } from "../db/db-faults.ts";
import { isSessionError, type SessionErrorCode } from "../sessions/session-errors.ts";
import { UsageError } from "./options.ts";

/** Exit code 2: the command asked for something that cannot be (the learner fixes the command). */
const USAGE: ReadonlySet<SessionErrorCode> = new Set([
  "agent-unknown",
  // One session at a time: the sentence says how to reach or end the one that is running.
  "already-active",
  "no-acp",
  "nothing-to-end",
  "not-found",
  "not-continuable",
  "wrong-transport",
]);

/** Exit code 75 (EX_TEMPFAIL): try again later (the database is locked, the disk full). */
export const EXIT_TRY_AGAIN = 75;

export class CliRefusal extends UsageError {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The refusal an error means on the command line, or the error itself when it is a fault. */
export function cliRefusal(error: unknown): unknown {
  // A setting in the environment the learner fixes, as they would a bad option.
  if (error instanceof SettingsError) return new CliRefusal(error.message, 2);
  if (isDbUnavailable(error)) return new CliRefusal(error.message, EXIT_TRY_AGAIN);
  if (isSessionError(error)) return new CliRefusal(error.message, USAGE.has(error.code) ? 2 : 1);
  return error;
}
