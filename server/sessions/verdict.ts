// The ownership verdict: what a stored study session is, from its row and the probed facts about its
// owner. Pure (no I/O, no clock): the DESIGN.md "Ownership verdict" table, one named rule per line.

export type Transport = "pty" | "acp" | "tmux";

export interface StoredOwnership {
  status: "starting" | "live" | "ended";
  transport: Transport;
  /** Start of the session: the last moment known alive when no heartbeat was ever written. */
  startedAt: Date;
  ownerInstance: string | null;
  ownerHost: string | null;
  /** The owner's stable host id; null on rows written before host ids (judged by hostname then). */
  ownerHostId: string | null;
  ownerBootId: string | null;
  ownerPid: number | null;
  ownerPidStartTime: string | null;
  ownerUrl: string | null;
  heartbeatAt: Date | null;
  muxSession: string | null;
}

export interface SelfIdentity {
  instanceId: string;
  /** The hostname, for display and for rows written before host ids. */
  host: string;
  /** The stable host id (host-id.ts): two servers with different ids are different hosts. */
  hostId: string;
  bootId: string | null;
}

export type PidFacts =
  | { state: "alive"; startTime: string | null }
  | { state: "gone" }
  | { state: "zombie" }
  | { state: "unknown"; error: string }
  | { state: "not-probed" };

export type TmuxFacts = "present" | "absent" | "unknown" | "not-probed";

export interface OwnerFacts {
  self: SelfIdentity;
  /** The database's clock (the reference every host's heartbeat is written with). */
  now: Date;
  leaseMs: number;
  /** This server's live registry has the session. */
  inRegistry: boolean;
  /** This server is still starting the session (a reservation). */
  reserving: boolean;
  /** Only meaningful for an owner on this host and boot. */
  pid: PidFacts;
  tmux: TmuxFacts;
}

export type EndReason = "server-stopped" | "tmux-gone";
export type UnknownProbe = "pid" | "tmux" | "clock" | "facts";

export type VerdictBody =
  | { kind: "ended" }
  | { kind: "live-here" }
  | { kind: "starting" }
  | {
      kind: "live-elsewhere";
      via: "server" | "tmux";
      ownerInstance: string | null;
      ownerHost: string | null;
      ownerUrl: string | null;
      ownerPid: number | null;
      muxSession: string | null;
    }
  | {
      kind: "orphaned";
      endReason: EndReason;
      cause: string;
      endedAt: Date;
      /**
       * Judged by its lease alone: the end must find the heartbeat as read, so an owner that renewed
       * meanwhile (after a stall) keeps its session, and exactly one of the two writes wins.
       */
      lapsed?: true;
    }
  | { kind: "unknown"; probe: UnknownProbe; error: string };

/** Every verdict names the rule (table line) that produced it, for logs and tests. */
export type Verdict = VerdictBody & { rule: RuleName };

/** Callers treat these as live: a start is refused, the row is not ended. Unknown is not dead. */
export function isLiveish(v: Verdict): boolean {
  return v.kind === "live-here" || v.kind === "starting" || v.kind === "live-elsewhere" || v.kind === "unknown";
}

/** Who owns the row, relative to this server: needs no probe, so planFacts can use it too. */
interface Identity {
  ownedHere: boolean;
  serverOwned: boolean; // pty/acp: the owner is a server process; tmux: the tmux session
  sameHost: boolean;
  /** "different" only when both boot ids are known: a missing one falls back to the pid probe. */
  boot: "same" | "different" | "unknown";
  /** The pid probe decides: a server on this host and (as far as we know) this boot, with a pid. */
  pidJudged: boolean;
  /** The heartbeat alone decides: another host, or a row without a pid (written by an older version). */
  byLease: boolean;
}

function identify(row: StoredOwnership, self: SelfIdentity): Identity {
  const serverOwned = row.transport !== "tmux";
  // The host id decides; an older row without one falls back to the hostname it recorded.
  const sameHost = row.ownerHostId !== null ? row.ownerHostId === self.hostId : row.ownerHost === self.host;
  const boot = row.ownerBootId === null || self.bootId === null ? "unknown" : row.ownerBootId === self.bootId ? "same" : "different";
  const thisBoot = serverOwned && sameHost && boot !== "different";
  return {
    ownedHere: row.ownerInstance === self.instanceId,
    serverOwned,
    sameHost,
    boot,
    pidJudged: thisBoot && row.ownerPid !== null,
    byLease: serverOwned && (!sameHost || (thisBoot && row.ownerPid === null)),
  };
}

/** What the rules read: the row, the facts, and the derived answers computed once. */
interface Ctx extends Identity {
  row: StoredOwnership;
  facts: OwnerFacts;
  /** Is the probed pid still the owner? Start times catch a reused pid. */
  pidOwner: "yes" | "no" | "unverifiable" | "not-probed";
  /** Last moment known alive: heartbeat, else start. */
  lastSeen: Date;
  /** now - lastSeen; negative when the owner's clock is ahead: fresh if within a lease (drift). */
  ageMs: number;
}

function pidOwner(row: StoredOwnership, pid: PidFacts): Ctx["pidOwner"] {
  switch (pid.state) {
    case "gone":
    case "zombie":
      return "no";
    case "unknown":
      return "unverifiable";
    case "not-probed":
      return "not-probed";
    case "alive":
      // An older row recorded no start time: trust the live pid (the safe side, treated as live).
      if (row.ownerPidStartTime === null) return "yes";
      if (pid.startTime === null) return "unverifiable";
      return pid.startTime === row.ownerPidStartTime ? "yes" : "no";
  }
}

interface Rule {
  name: string;
  when: (c: Ctx) => boolean;
  verdict: (c: Ctx) => VerdictBody;
}

const elsewhere = (c: Ctx, via: "server" | "tmux"): VerdictBody => ({
  kind: "live-elsewhere",
  via,
  ownerInstance: c.row.ownerInstance,
  ownerHost: c.row.ownerHost,
  ownerUrl: c.row.ownerUrl,
  ownerPid: c.row.ownerPid,
  muxSession: c.row.muxSession,
});

/** endedAt is the last moment known alive, never after now nor before the start (skewed clocks). */
type Orphaned = Extract<VerdictBody, { kind: "orphaned" }>;

const orphaned = (c: Ctx, endReason: EndReason, cause: string): Orphaned => {
  const capped = Math.min(c.lastSeen.getTime(), c.facts.now.getTime());
  return { kind: "orphaned", endReason, cause, endedAt: new Date(Math.max(capped, c.row.startedAt.getTime())) };
};

const lapsed = (c: Ctx): Orphaned => ({ ...orphaned(c, "server-stopped", staleCause(c)), lapsed: true });

function pidEndCause(c: Ctx): string {
  const pid = c.row.ownerPid;
  const where = c.row.ownerHost ?? "this machine";
  if (c.facts.pid.state === "zombie") return `owner pid ${pid} on ${where} has exited (zombie)`;
  if (c.facts.pid.state === "alive") {
    const times = `start time ${c.facts.pid.startTime}, owner's was ${c.row.ownerPidStartTime}`;
    return `pid ${pid} now belongs to another process (${times})`;
  }
  return `owner pid ${pid} on ${where} is gone`;
}

function staleCause(c: Ctx): string {
  const lease = formatDuration(c.facts.leaseMs);
  if (c.row.heartbeatAt === null) {
    return `no heartbeat since it started ${formatDuration(c.ageMs)} ago (lease ${lease})`;
  }
  return `heartbeat ${formatDuration(c.ageMs)} old (lease ${lease})`;
}

/** Ordered; the first match wins. Names are the DESIGN.md table lines, then the edge cases. */
const RULES = [
  { name: "ended", when: (c) => c.row.status === "ended", verdict: () => ({ kind: "ended" }) },
  {
    name: "owned by this server instance, live in its registry",
    when: (c) => c.ownedHere && c.facts.inRegistry,
    verdict: () => ({ kind: "live-here" }),
  },
  {
    name: "owned by this server instance, reservation still starting",
    when: (c) => c.ownedHere && c.facts.reserving,
    verdict: () => ({ kind: "starting" }),
  },
  {
    // Not for tmux: a tmux session is owned by tmux and outlives the server that may have started it.
    name: "owned by this server instance, neither",
    when: (c) => c.ownedHere && c.serverOwned,
    verdict: (c) => orphaned(c, "server-stopped", "this server is no longer running it"),
  },
  {
    name: "pty/acp, same host, same boot: pid alive, not a zombie, same start time",
    when: (c) => c.pidJudged && c.pidOwner === "yes",
    verdict: (c) => elsewhere(c, "server"),
  },
  {
    name: "pty/acp, same host, same boot: pid gone, zombie, or start time differs",
    when: (c) => c.pidJudged && c.pidOwner === "no",
    verdict: (c) => orphaned(c, "server-stopped", pidEndCause(c)),
  },
  {
    name: "pty/acp, same host, earlier boot",
    when: (c) => c.serverOwned && c.sameHost && c.boot === "different",
    verdict: (c) => orphaned(c, "server-stopped", "the machine restarted"),
  },
  {
    // Far enough ahead that it is not drift: trusting it would keep the row fresh until real time
    // catches up (maybe days); ending it could kill a live agent on a skewed host. Unknown is logged,
    // treated as live, and the learner can still end it.
    name: "pty/acp, heartbeat from the future (clock skew beyond the lease)",
    when: (c) => c.byLease && c.lastSeen.getTime() > c.facts.now.getTime() + c.facts.leaseMs,
    verdict: (c) => ({
      kind: "unknown",
      probe: "clock",
      error: `heartbeat is ${formatDuration(-c.ageMs)} in the future (clock skew with ${c.row.ownerHost ?? "its owner"})`,
    }),
  },
  {
    name: "pty/acp, other host: heartbeat within the lease",
    when: (c) => c.byLease && !c.sameHost && c.ageMs <= c.facts.leaseMs,
    verdict: (c) => elsewhere(c, "server"),
  },
  {
    name: "pty/acp, other host: heartbeat older than the lease",
    when: (c) => c.byLease && !c.sameHost && c.ageMs > c.facts.leaseMs,
    verdict: lapsed,
  },
  {
    // A row from an older version (no pid) on this host is judged like another host's: by the lease.
    name: "pty/acp, same host, no pid recorded: heartbeat within the lease",
    when: (c) => c.byLease && c.ageMs <= c.facts.leaseMs,
    verdict: (c) => elsewhere(c, "server"),
  },
  {
    name: "pty/acp, same host, no pid recorded: heartbeat older than the lease",
    when: (c) => c.byLease && c.ageMs > c.facts.leaseMs,
    verdict: lapsed,
  },
  {
    name: "tmux: tmux has the session",
    when: (c) => !c.serverOwned && c.facts.tmux === "present",
    verdict: (c) => elsewhere(c, "tmux"),
  },
  {
    // The CLI writes the row, then asks tmux to create the session: a reader in between must not
    // end a session that is still being born. The lease bounds how long "starting" can be claimed.
    name: "tmux: still starting, tmux has no session yet",
    when: (c) => !c.serverOwned && c.row.status === "starting" && c.facts.tmux === "absent" && c.ageMs <= c.facts.leaseMs,
    verdict: () => ({ kind: "starting" }),
  },
  {
    name: "tmux: tmux says it has no such session",
    when: (c) => !c.serverOwned && c.facts.tmux === "absent",
    verdict: (c) => orphaned(c, "tmux-gone", `tmux has no session ${c.row.muxSession ?? "(unnamed)"}`),
  },
  {
    name: "any: probe failed",
    when: (c) => (c.pidJudged && c.pidOwner === "unverifiable") || (!c.serverOwned && c.facts.tmux === "unknown"),
    verdict: (c) => {
      if (!c.serverOwned) {
        return { kind: "unknown", probe: "tmux", error: `tmux did not say whether session ${c.row.muxSession} exists` };
      }
      if (c.facts.pid.state === "unknown") return { kind: "unknown", probe: "pid", error: c.facts.pid.error };
      return { kind: "unknown", probe: "pid", error: `could not read the start time of pid ${c.row.ownerPid}` };
    },
  },
  {
    // Reached only when the caller skipped a probe the row needs (see planFacts), or a tmux row has
    // no session name: never guess dead.
    name: "facts missing",
    when: () => true,
    verdict: (c) => ({
      kind: "unknown",
      probe: "facts",
      error: c.serverOwned
        ? `owner pid ${c.row.ownerPid} was not probed`
        : `tmux session ${c.row.muxSession ?? "(unnamed)"} was not probed`,
    }),
  },
] as const satisfies readonly Rule[];

export type RuleName = (typeof RULES)[number]["name"];
export const RULE_NAMES: readonly RuleName[] = RULES.map((r) => r.name);

export function judgeSession(row: StoredOwnership, facts: OwnerFacts): Verdict {
  const lastSeen = row.heartbeatAt ?? row.startedAt;
  const c: Ctx = {
    ...identify(row, facts.self),
    row,
    facts,
    pidOwner: pidOwner(row, facts.pid),
    lastSeen,
    ageMs: facts.now.getTime() - lastSeen.getTime(),
  };
  // The last rule always matches; the fallback only keeps the compiler honest.
  const rule: Rule = RULES.find((r: Rule) => r.when(c)) ?? RULES[RULES.length - 1]!;
  return { ...rule.verdict(c), rule: rule.name as RuleName };
}

export interface ProbePlan {
  /** The pid to probe: a server on this host and boot other than this instance (its registry answers). */
  pid: number | null;
  /** The tmux session name to ask tmux about. */
  tmux: string | null;
}

/** Which probes judgeSession needs for this row, so the I/O layer probes only what matters. */
export function planFacts(row: StoredOwnership, self: SelfIdentity): ProbePlan {
  if (row.status === "ended") return { pid: null, tmux: null };
  if (row.transport === "tmux") return { pid: null, tmux: row.muxSession };
  const id = identify(row, self);
  return { pid: id.pidJudged && !id.ownedHere ? row.ownerPid : null, tmux: null };
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}
