// The session lifecycle as data: starting -> live -> ending -> ended, and the keeper's rule for how
// long a session nobody watches is kept. Pure (no I/O, no clock), table-tested beside it.

export type Phase = "starting" | "live" | "ending" | "ended";

export type LifecycleEvent =
  /** The agent runs: the row is marked live. */
  | "launched"
  /** The agent could not start: the row is ended as startup-failed. */
  | "launch-failed"
  /** "ending" is written (before the agent is stopped). */
  | "ending-written"
  /** The row was ended by someone else (another server, the CLI): stop the agent, keep their reason. */
  | "ended-elsewhere"
  /** The final write (summary, transcript, reason) is done. */
  | "ended-written"
  /**
   * This server could not renew its lease in time: the agent is stopped at once, without writing
   * "ending" (the database is out of reach); the final write waits for the database.
   */
  | "lease-lost";

const NEXT: Record<Phase, Partial<Record<LifecycleEvent, Phase>>> = {
  starting: { launched: "live", "launch-failed": "ended", "ended-elsewhere": "ended", "lease-lost": "ending" },
  live: { "ending-written": "ending", "ended-elsewhere": "ended", "lease-lost": "ending" },
  ending: { "ended-written": "ended", "ended-elsewhere": "ended", "ending-written": "ending" },
  ended: {},
};

/** The phase after an event, or null when the event cannot happen in that phase (a bug, or a race lost). */
export function nextPhase(phase: Phase, event: LifecycleEvent): Phase | null {
  return NEXT[phase][event] ?? null;
}

/** A row's stored status as a phase (older rows know only starting, live and ended). */
export function phaseOf(status: string, endedAt: Date | null): Phase {
  if (endedAt) return "ended";
  return status === "starting" || status === "ending" ? status : "live";
}

export interface KeepFacts {
  readonly now: number;
  readonly viewers: number;
  readonly attachedOnce: boolean;
  readonly startedAt: number;
  /** When the last viewer left; null while someone watches or nobody ever did. */
  readonly lastViewerLeftAt: number | null;
  /** The focus timer is paused since then (a break): the grace window does not run. */
  readonly pausedAt: number | null;
  /** The timer was last resumed then: grace counts from here at the earliest. */
  readonly resumedAt: number | null;
  readonly graceMs: number;
  readonly neverAttachedMs: number;
  /** The longest a pause keeps a session nobody watches (then grace runs as usual). */
  readonly pauseKeepMs: number;
}

export type KeepDecision =
  | { readonly kind: "keep"; readonly until: number | null; readonly why: "watched" | "waiting" | "paused" | "grace" }
  | { readonly kind: "end"; readonly reason: "never-attached" | "grace-expired" };

/**
 * Whether a session this server runs is kept, and until when. A viewer keeps it indefinitely; a
 * pause keeps it for pauseKeepMs, then grace runs; otherwise grace runs from the later of the last
 * viewer leaving and the last resume.
 */
export function keepDecision(f: KeepFacts): KeepDecision {
  if (f.viewers > 0) return { kind: "keep", until: null, why: "watched" };
  const pauseUntil = f.pausedAt !== null ? f.pausedAt + f.pauseKeepMs + f.graceMs : null;
  if (!f.attachedOnce) {
    const until = Math.max(f.startedAt + f.neverAttachedMs, pauseUntil ?? 0);
    return f.now >= until
      ? { kind: "end", reason: "never-attached" }
      : { kind: "keep", until, why: pauseUntil !== null && pauseUntil === until ? "paused" : "waiting" };
  }
  const left = Math.max(f.lastViewerLeftAt ?? f.now, f.resumedAt ?? 0);
  const graceUntil = left + f.graceMs;
  const until = Math.max(graceUntil, pauseUntil ?? 0);
  if (f.now >= until) return { kind: "end", reason: "grace-expired" };
  return { kind: "keep", until, why: pauseUntil !== null && pauseUntil >= graceUntil ? "paused" : "grace" };
}

/** Until when a paused session is kept with no page open (what the page and the dashboard say). */
export function pausedKeptUntil(pausedAt: Date | null, pauseKeepMs: number, graceMs: number): Date | null {
  return pausedAt ? new Date(pausedAt.getTime() + pauseKeepMs + graceMs) : null;
}

/**
 * When a kept session's end is near enough to warn the learner: the moment it ends, or null. Only a
 * session the learner watched and left (grace) or paused: one nobody has opened yet (waiting) is
 * being opened right now, most of the time, and a warning then would be noise.
 */
export function graceWarning(d: KeepDecision, now: number, leadMs: number): number | null {
  if (d.kind !== "keep" || d.until === null || (d.why !== "grace" && d.why !== "paused")) return null;
  return d.until - now <= leadMs ? d.until : null;
}
