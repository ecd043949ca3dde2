// The chat's limits, shared by the server (which enforces them) and the browser (which shows them).
export const ACP_LIMITS = {
  /** How long the agent has to answer initialize and session/new, in milliseconds. */
  HANDSHAKE_TIMEOUT_MS: 45_000,
  /** Longest learner message, in characters. */
  PROMPT_MAX_CHARS: 16_000,
  /** Characters of a non-protocol line quoted back to the learner. */
  QUOTE_CHARS: 120,
  /** A turn with no event from the agent for this long is stopped (STUDYLOOP_ACP_TURN_TIMEOUT_SECONDS). */
  TURN_TIMEOUT_MS: 180_000,
  /**
   * After a refused start, how long to wait for the agent's error output to close before quoting its
   * last line: it comes on another pipe than the refusal, and may be read after it.
   */
  STDERR_SETTLE_MS: 1_000,
  /** After Stop, how long the agent has to end the turn itself before it is ended without it. */
  CANCEL_GRACE_MS: 5_000,
  /** The chat says "no answer for N s" (with Stop and Retry) after this long without an event. */
  SILENCE_NOTICE_MS: 15_000,
} as const;
