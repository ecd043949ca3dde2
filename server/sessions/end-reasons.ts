// Why a session ended, in the learner's words. Pure: the time arrives already formatted.

export const END_REASONS = [
  "ended-by-learner",
  "agent-exited",
  "server-stopped",
  "server-shutdown",
  "grace-expired",
  "never-attached",
  "startup-failed",
  "tmux-gone",
  "lease-lost",
] as const;

export type EndReason = (typeof END_REASONS)[number];

export interface EndFacts {
  readonly reason: string | null;
  readonly at: string; // e.g. "14:32"
  readonly agentLabel: string;
  readonly exitCode: number | null;
  readonly detail: string | null;
  readonly graceMinutes?: number;
  /** The agent's last lines were kept: the page shows them under this sentence. */
  readonly hasOutput?: boolean;
}

/** Ended without the learner's End (or the tutor stopped on its own): the tutor can be continued. */
export function isContinuable(reason: string | null): boolean {
  return reason !== null && reason !== "ended-by-learner" && reason !== "startup-failed";
}

export function explainEnd(f: EndFacts): string {
  switch (f.reason as EndReason) {
    case "ended-by-learner":
      return `You ended this session at ${f.at}.`;
    case "agent-exited": {
      const what =
        f.exitCode === null
          ? `The tutor (${f.agentLabel}) stopped at ${f.at}, so the session ended. Your notes are kept.`
          : `The tutor (${f.agentLabel}) exited with code ${f.exitCode} at ${f.at}, so the session ended. Your notes are kept.`;
      // A tutor that stops with an error usually says why in its last lines (signed out, offline).
      return f.hasOutput && f.exitCode !== 0
        ? `${what} Its last lines are below: fix what they say (sign in, network, settings), then try again.`
        : what;
    }
    case "server-stopped":
      return `The StudyLoop server that ran this session stopped at ${f.at}, so the session ended. Your notes are kept.`;
    case "server-shutdown":
      return `StudyLoop was shut down at ${f.at}, so the session ended. Your notes and the transcript are kept.`;
    case "grace-expired":
      return `Nobody came back to this session${f.graceMinutes ? ` for ${f.graceMinutes} minutes` : ""}, so it ended at ${f.at}. Your notes are kept.`;
    case "never-attached":
      return `Nobody opened this session after it started, so it ended at ${f.at}.`;
    case "startup-failed":
      return `The tutor (${f.agentLabel}) could not start${f.detail ? `: ${f.detail}` : ""}. Nothing was lost; ${f.hasOutput ? "its last lines are below. Fix what they say, then try again." : "check that the agent runs in a terminal on this machine, then try again."}`;
    case "lease-lost":
      return `This StudyLoop server lost the database${f.detail ? ` (${f.detail})` : ""}, so it stopped the tutor at ${f.at}: a session may run on one server only, and another could have taken it over. Your notes up to then are kept.`;
    case "tmux-gone":
      return `The tmux session that ran this study session closed at about ${f.at}, so the session ended. Your notes are kept.`;
    default:
      return `This session ended at ${f.at}. Your notes are kept.`;
  }
}

/**
 * Formats hours and minutes. One formatter for the process: toLocaleTimeString with options builds a
 * new one on every call, which was the largest single cost of a state read (docs/performance.md).
 */
const CLOCK = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });

/** Hours and minutes in the server's time zone: the server is the learner's own machine. */
export function clockTime(date: Date): string {
  return CLOCK.format(date);
}
