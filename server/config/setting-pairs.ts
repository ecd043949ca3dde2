// Settings that are each valid alone but cannot work together: a pure table, checked once at start
// (loadSettings), so a server that would misbehave refuses to start and says which pair and why.
// Only pairs that break something belong here: a grace warning longer than the grace window, say,
// merely shows at once, and a learner who shortens only the grace must not be refused for it.

/** The settings the pairs read (settings.ts parses them; this module stays below it). */
interface PairedSettings {
  readonly STUDYLOOP_LEASE_SECONDS: number;
  readonly STUDYLOOP_HEARTBEAT_SECONDS: number;
}

type PairedName = keyof PairedSettings;

/**
 * A session's owner stops its agent once its last lease renewal is this many heartbeats short of the
 * lease (lease-watch.ts, and the agent's supervisor): room for renewals to be late or retried.
 */
export const LEASE_MARGIN_HEARTBEATS = 2;
/**
 * The shortest lease, in heartbeats: the owner gets at least two renewals before its own deadline
 * (lease minus the margin), so one slow or lost renewal never stops a session.
 */
export const MIN_LEASE_HEARTBEATS = LEASE_MARGIN_HEARTBEATS + 2;

/** Two settings that cannot be used together, in the learner's words. */
export interface SettingConflict {
  readonly names: readonly [PairedName, PairedName];
  readonly why: string;
}

interface PairRule {
  readonly names: readonly [PairedName, PairedName];
  readonly broken: (s: PairedSettings) => string | null;
}

const PAIRS: readonly PairRule[] = [
  {
    names: ["STUDYLOOP_LEASE_SECONDS", "STUDYLOOP_HEARTBEAT_SECONDS"],
    broken: (s) =>
      s.STUDYLOOP_LEASE_SECONDS >= MIN_LEASE_HEARTBEATS * s.STUDYLOOP_HEARTBEAT_SECONDS
        ? null
        : `the lease (${s.STUDYLOOP_LEASE_SECONDS} s) must be at least ${MIN_LEASE_HEARTBEATS} heartbeats (${MIN_LEASE_HEARTBEATS * s.STUDYLOOP_HEARTBEAT_SECONDS} s), or a live session would be stopped, or ended by another server, between two heartbeats`,
  },
];

/** The pairs these settings break; empty when they work together. */
export function settingConflicts(settings: PairedSettings): SettingConflict[] {
  return PAIRS.flatMap((rule) => {
    const why = rule.broken(settings);
    return why === null ? [] : [{ names: rule.names, why }];
  });
}
