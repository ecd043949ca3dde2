// Table test of the ownership verdict: one case per DESIGN.md table line, then the edge cases.
import { describe, expect, it } from "vitest";
import {
  isLiveish,
  judgeSession,
  planFacts,
  RULE_NAMES,
  type OwnerFacts,
  type RuleName,
  type StoredOwnership,
  type Verdict,
} from "./verdict.ts";

const NOW = new Date("2026-11-30T10:00:00Z");
const LEASE_MS = 30_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const STARTED = ago(3_600_000);

const SELF = { instanceId: "inst-self", host: "laptop", hostId: "host-laptop", bootId: "boot-1" };

/** A live pty row owned by another server process on this host and boot. */
function row(over: Partial<StoredOwnership> = {}): StoredOwnership {
  return {
    status: "live",
    transport: "pty",
    startedAt: STARTED,
    ownerInstance: "inst-other",
    ownerHost: "laptop",
    ownerHostId: "host-laptop",
    ownerBootId: "boot-1",
    ownerPid: 4242,
    ownerPidStartTime: "1000",
    ownerUrl: "http://127.0.0.1:4100",
    heartbeatAt: ago(5_000),
    muxSession: null,
    ...over,
  };
}

function facts(over: Partial<OwnerFacts> = {}): OwnerFacts {
  return {
    self: SELF,
    now: NOW,
    leaseMs: LEASE_MS,
    inRegistry: false,
    reserving: false,
    pid: { state: "alive", startTime: "1000" },
    tmux: "not-probed",
    ...over,
  };
}

const tmuxRow = (over: Partial<StoredOwnership> = {}) =>
  row({ transport: "tmux", ownerInstance: "cli-1", ownerPid: 777, muxSession: "study-abc", ...over });
const otherHost = (over: Partial<StoredOwnership> = {}) =>
  row({ ownerHost: "desktop", ownerHostId: "host-desktop", ownerBootId: "boot-9", ...over });

const hit = new Set<RuleName>();
function expectVerdict(v: Verdict, kind: Verdict["kind"], rule: RuleName): void {
  hit.add(v.rule);
  expect({ kind: v.kind, rule: v.rule }).toEqual({ kind, rule });
}

describe("judgeSession: the DESIGN.md table", () => {
  it("ended | - | ended", () => {
    // Even with this server's registry holding it: the row's ended state wins.
    const v = judgeSession(row({ status: "ended", ownerInstance: SELF.instanceId }), facts({ inRegistry: true }));
    expectVerdict(v, "ended", "ended");
  });

  it("owned by this server instance, live in its registry | - | live here", () => {
    const mine = row({ ownerInstance: SELF.instanceId });
    const v = judgeSession(mine, facts({ inRegistry: true, pid: { state: "gone" } }));
    expectVerdict(v, "live-here", "owned by this server instance, live in its registry");
  });

  it("owned by this server instance, reservation still starting | - | starting", () => {
    const v = judgeSession(row({ status: "starting", ownerInstance: SELF.instanceId }), facts({ reserving: true }));
    expectVerdict(v, "starting", "owned by this server instance, reservation still starting");
  });

  it("owned by this server instance, neither | - | orphaned", () => {
    // The pid facts say alive (it is us), yet our registry lost it: orphaned.
    const v = judgeSession(row({ ownerInstance: SELF.instanceId }), facts());
    expectVerdict(v, "orphaned", "owned by this server instance, neither");
    expect(v).toMatchObject({ endReason: "server-stopped", endedAt: ago(5_000) });
  });

  it("pty/acp, same host, same boot | pid alive, not a zombie, same start time | live elsewhere (name it)", () => {
    const v = judgeSession(row({ transport: "acp" }), facts());
    expectVerdict(v, "live-elsewhere", "pty/acp, same host, same boot: pid alive, not a zombie, same start time");
    expect(v).toMatchObject({ via: "server", ownerHost: "laptop", ownerUrl: "http://127.0.0.1:4100", ownerPid: 4242 });
  });

  describe("pty/acp, same host, same boot | pid gone, zombie, or start time differs | orphaned", () => {
    const rule = "pty/acp, same host, same boot: pid gone, zombie, or start time differs" as const;
    it("pid gone", () => {
      const v = judgeSession(row(), facts({ pid: { state: "gone" } }));
      expectVerdict(v, "orphaned", rule);
      expect(v).toMatchObject({ endReason: "server-stopped", cause: "owner pid 4242 on laptop is gone" });
    });
    it("zombie", () => {
      const v = judgeSession(row(), facts({ pid: { state: "zombie" } }));
      expectVerdict(v, "orphaned", rule);
      expect(v).toMatchObject({ cause: expect.stringContaining("zombie") });
    });
    it("start time differs (pid reused)", () => {
      const v = judgeSession(row(), facts({ pid: { state: "alive", startTime: "2000" } }));
      expectVerdict(v, "orphaned", rule);
      expect(v).toMatchObject({ cause: expect.stringContaining("another process") });
    });
  });

  it("pty/acp, same host, earlier boot | - | orphaned (the machine restarted)", () => {
    // The old pid may well be alive again as some other process: the boot id decides first.
    const v = judgeSession(row({ ownerBootId: "boot-0" }), facts({ pid: { state: "not-probed" } }));
    expectVerdict(v, "orphaned", "pty/acp, same host, earlier boot");
    expect(v).toMatchObject({ cause: "the machine restarted", endedAt: ago(5_000) });
  });

  it("pty/acp, other host (shared database) | heartbeat within the lease | live elsewhere", () => {
    const v = judgeSession(otherHost({ heartbeatAt: ago(LEASE_MS) }), facts({ pid: { state: "not-probed" } }));
    expectVerdict(v, "live-elsewhere", "pty/acp, other host: heartbeat within the lease");
    expect(v).toMatchObject({ via: "server", ownerHost: "desktop" });
  });

  it("pty/acp, other host | heartbeat older than the lease | orphaned", () => {
    const v = judgeSession(otherHost({ heartbeatAt: ago(5 * 60_000) }), facts({ pid: { state: "not-probed" } }));
    expectVerdict(v, "orphaned", "pty/acp, other host: heartbeat older than the lease");
    expect(v).toMatchObject({ cause: "heartbeat 5 min old (lease 30 s)", endedAt: ago(5 * 60_000) });
    // Judged by the lease alone: its end must find the heartbeat as read (an owner may renew first).
    expect(v).toMatchObject({ lapsed: true });
  });

  it("an owner that is judged by its pid is not ended on the condition of its heartbeat", () => {
    const v = judgeSession(row({}), facts({ pid: { state: "gone" } }));
    expect(v.kind).toBe("orphaned");
    expect(v).not.toHaveProperty("lapsed");
  });

  it("tmux | tmux has the session | live elsewhere (CLI), attachable through tmux", () => {
    const v = judgeSession(tmuxRow(), facts({ tmux: "present", pid: { state: "gone" } }));
    expectVerdict(v, "live-elsewhere", "tmux: tmux has the session");
    expect(v).toMatchObject({ via: "tmux", muxSession: "study-abc" });
  });

  it("tmux | tmux says it has no such session | orphaned", () => {
    // Its CLI's pid being alive does not matter: tmux owns a tmux session.
    const v = judgeSession(tmuxRow(), facts({ tmux: "absent" }));
    expectVerdict(v, "orphaned", "tmux: tmux says it has no such session");
    expect(v).toMatchObject({ endReason: "tmux-gone", cause: "tmux has no session study-abc" });
  });

  it("tmux | starting, tmux has no session yet, heartbeat within the lease | starting", () => {
    const v = judgeSession(tmuxRow({ status: "starting", heartbeatAt: ago(2_000) }), facts({ tmux: "absent" }));
    expectVerdict(v, "starting", "tmux: still starting, tmux has no session yet");
    const stale = judgeSession(tmuxRow({ status: "starting", heartbeatAt: ago(60_000) }), facts({ tmux: "absent" }));
    expectVerdict(stale, "orphaned", "tmux: tmux says it has no such session");
  });

  describe("any | probe failed | unknown: treated as live", () => {
    const rule = "any: probe failed" as const;
    it("pid probe failed (/proc unreadable)", () => {
      const v = judgeSession(row(), facts({ pid: { state: "unknown", error: "EACCES" } }));
      expectVerdict(v, "unknown", rule);
      expect(v).toMatchObject({ probe: "pid", error: "EACCES" });
      expect(isLiveish(v)).toBe(true);
    });
    it("tmux did not answer", () => {
      const v = judgeSession(tmuxRow(), facts({ tmux: "unknown" }));
      expectVerdict(v, "unknown", rule);
      expect(v).toMatchObject({ probe: "tmux" });
    });
    it("pid alive but its start time unreadable while the row recorded one", () => {
      const v = judgeSession(row(), facts({ pid: { state: "alive", startTime: null } }));
      expectVerdict(v, "unknown", rule);
    });
  });
});

describe("judgeSession: edge cases", () => {
  it("a row without a pid (older version) on this host, fresh heartbeat: live elsewhere by the lease", () => {
    const v = judgeSession(row({ ownerPid: null, ownerPidStartTime: null }), facts({ pid: { state: "not-probed" } }));
    expectVerdict(v, "live-elsewhere", "pty/acp, same host, no pid recorded: heartbeat within the lease");
  });

  it("a row without a pid (older version) on this host, stale heartbeat: orphaned by the lease", () => {
    const v = judgeSession(
      row({ ownerPid: null, ownerPidStartTime: null, ownerBootId: null, heartbeatAt: ago(LEASE_MS + 1) }),
      facts({ pid: { state: "not-probed" } }),
    );
    expectVerdict(v, "orphaned", "pty/acp, same host, no pid recorded: heartbeat older than the lease");
  });

  it("no heartbeat ever: judged from the start time, and endedAt falls back to startedAt", () => {
    const v = judgeSession(otherHost({ heartbeatAt: null }), facts());
    expectVerdict(v, "orphaned", "pty/acp, other host: heartbeat older than the lease");
    expect(v).toMatchObject({ endedAt: STARTED, cause: "no heartbeat since it started 60 min ago (lease 30 s)" });
  });

  it("a heartbeat ahead by less than a lease (clock drift) counts as fresh", () => {
    const v = judgeSession(otherHost({ heartbeatAt: ago(-LEASE_MS) }), facts());
    expectVerdict(v, "live-elsewhere", "pty/acp, other host: heartbeat within the lease");
  });

  it("a heartbeat further in the future than a lease (clock skew) is unknown, not fresh forever", () => {
    const v = judgeSession(otherHost({ heartbeatAt: ago(-3 * 86_400_000) }), facts());
    expectVerdict(v, "unknown", "pty/acp, heartbeat from the future (clock skew beyond the lease)");
    expect(v).toMatchObject({ probe: "clock", error: expect.stringContaining("3 days in the future") });
  });

  it("same host, the row's boot id unknown: the pid probe with start time still catches a reused pid", () => {
    const v = judgeSession(row({ ownerBootId: null }), facts({ pid: { state: "alive", startTime: "999" } }));
    expectVerdict(v, "orphaned", "pty/acp, same host, same boot: pid gone, zombie, or start time differs");
  });

  it("same host, this server's boot id unknown: a live pid with the same start time is live elsewhere", () => {
    const v = judgeSession(row(), facts({ self: { ...SELF, bootId: null } }));
    expectVerdict(v, "live-elsewhere", "pty/acp, same host, same boot: pid alive, not a zombie, same start time");
  });

  it("a row that recorded no start time trusts a live pid", () => {
    const v = judgeSession(row({ ownerPidStartTime: null }), facts({ pid: { state: "alive", startTime: "1" } }));
    expectVerdict(v, "live-elsewhere", "pty/acp, same host, same boot: pid alive, not a zombie, same start time");
  });

  it("the pid probe was skipped for a row that needs it: unknown, never dead", () => {
    const v = judgeSession(row(), facts({ pid: { state: "not-probed" } }));
    expectVerdict(v, "unknown", "facts missing");
  });

  it("a tmux row owned by this instance but not in its registry is judged by tmux, not orphaned", () => {
    const v = judgeSession(tmuxRow({ ownerInstance: SELF.instanceId }), facts({ tmux: "present" }));
    expectVerdict(v, "live-elsewhere", "tmux: tmux has the session");
  });

  it("a heartbeat after now never makes endedAt later than now", () => {
    const v = judgeSession(row({ heartbeatAt: ago(-10_000) }), facts({ pid: { state: "gone" } }));
    expect(v).toMatchObject({ kind: "orphaned", endedAt: NOW });
  });

  it("a start after now (clock stepped back) makes endedAt the start: zero study time, never negative", () => {
    const v = judgeSession(row({ startedAt: ago(-10_000), heartbeatAt: null }), facts({ pid: { state: "gone" } }));
    expect(v).toMatchObject({ kind: "orphaned", endedAt: ago(-10_000) });
  });

  it("this server's registry holding an id the row says another owner has is not live here", () => {
    const v = judgeSession(otherHost({ heartbeatAt: ago(LEASE_MS + 1) }), facts({ inRegistry: true, reserving: true }));
    expectVerdict(v, "orphaned", "pty/acp, other host: heartbeat older than the lease");
  });

  describe("the host id decides what is the same host, not the hostname", () => {
    // Two servers on one machine with their own data directories (or STUDYLOOP_HOST_ID), sharing a database.
    const sibling = (over: Partial<StoredOwnership> = {}) => row({ ownerHostId: "host-sibling", ...over });

    it("same hostname and boot, another host id, fresh lease: live elsewhere by the lease, its pid not probed", () => {
      const v = judgeSession(sibling({ heartbeatAt: ago(LEASE_MS) }), facts({ pid: { state: "not-probed" } }));
      expectVerdict(v, "live-elsewhere", "pty/acp, other host: heartbeat within the lease");
      expect(planFacts(sibling(), SELF)).toEqual({ pid: null, tmux: null });
    });

    it("same hostname, another host id, lapsed lease: orphaned at its last heartbeat even though a process has its pid", () => {
      const v = judgeSession(sibling({ heartbeatAt: ago(LEASE_MS + 1) }), facts({ pid: { state: "alive", startTime: "1000" } }));
      expectVerdict(v, "orphaned", "pty/acp, other host: heartbeat older than the lease");
      expect(v).toMatchObject({ endReason: "server-stopped", endedAt: ago(LEASE_MS + 1) });
    });

    it("same host id under a new hostname (the machine was renamed): judged by its pid, not by the lease", () => {
      const renamed = row({ ownerHost: "old-name", heartbeatAt: ago(10 * LEASE_MS) });
      expect(planFacts(renamed, SELF)).toEqual({ pid: 4242, tmux: null });
      expectVerdict(
        judgeSession(renamed, facts()),
        "live-elsewhere",
        "pty/acp, same host, same boot: pid alive, not a zombie, same start time",
      );
    });

    it("a row written before host ids: the hostname decides, as before", () => {
      const old = row({ ownerHostId: null });
      expect(planFacts(old, SELF)).toEqual({ pid: 4242, tmux: null });
      const away = otherHost({ ownerHostId: null, heartbeatAt: ago(LEASE_MS + 1) });
      expectVerdict(
        judgeSession(away, facts({ pid: { state: "not-probed" } })),
        "orphaned",
        "pty/acp, other host: heartbeat older than the lease",
      );
    });

    it("the database's clock is the reference: a heartbeat the database wrote 1 ms past the lease is stale whatever the reader's clock", () => {
      // facts.now is the database's now (session-store.ts dbNow), not the reader's local clock.
      const v = judgeSession(sibling({ heartbeatAt: ago(LEASE_MS + 1) }), facts());
      expectVerdict(v, "orphaned", "pty/acp, other host: heartbeat older than the lease");
      expectVerdict(
        judgeSession(sibling({ heartbeatAt: ago(LEASE_MS) }), facts()),
        "live-elsewhere",
        "pty/acp, other host: heartbeat within the lease",
      );
    });
  });

  it("every rule is exercised by a case above", () => {
    expect(RULE_NAMES.filter((name) => !hit.has(name))).toEqual([]);
  });
});

describe("isLiveish", () => {
  it("is true for live here, starting, live elsewhere and unknown; false for ended and orphaned", () => {
    const all = ["ended", "live-here", "starting", "live-elsewhere", "orphaned", "unknown"] as const;
    const kinds = all.filter((kind) => isLiveish({ kind, rule: "ended" } as Verdict));
    expect(kinds).toEqual(["live-here", "starting", "live-elsewhere", "unknown"]);
  });
});

describe("planFacts", () => {
  it("probes the pid of another server on this host and boot", () => {
    expect(planFacts(row(), SELF)).toEqual({ pid: 4242, tmux: null });
  });
  it("probes the pid when a boot id is unknown", () => {
    expect(planFacts(row({ ownerBootId: null }), SELF)).toEqual({ pid: 4242, tmux: null });
  });
  it("probes nothing for this instance's own row, another host, an earlier boot, no pid, or an ended row", () => {
    for (const r of [
      row({ ownerInstance: SELF.instanceId }),
      otherHost(),
      row({ ownerBootId: "boot-0" }),
      row({ ownerPid: null }),
      row({ status: "ended" }),
    ]) {
      expect(planFacts(r, SELF)).toEqual({ pid: null, tmux: null });
    }
  });
  it("asks tmux for a tmux row, never its pid", () => {
    expect(planFacts(tmuxRow(), SELF)).toEqual({ pid: null, tmux: "study-abc" });
    expect(planFacts(tmuxRow({ status: "ended" }), SELF)).toEqual({ pid: null, tmux: null });
  });
});
