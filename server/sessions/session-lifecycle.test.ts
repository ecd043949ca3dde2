import { describe, expect, it } from "vitest";
import { graceWarning, keepDecision, nextPhase, phaseOf, type KeepFacts, type LifecycleEvent, type Phase } from "./session-lifecycle.ts";

const MIN = 60_000;
const base: KeepFacts = {
  now: 1_000 * MIN,
  viewers: 0,
  attachedOnce: true,
  startedAt: 900 * MIN,
  lastViewerLeftAt: 990 * MIN,
  pausedAt: null,
  resumedAt: null,
  graceMs: 15 * MIN,
  neverAttachedMs: 1.5 * MIN,
  pauseKeepMs: 180 * MIN,
};

describe("nextPhase", () => {
  const table: [Phase, LifecycleEvent, Phase | null][] = [
    ["starting", "launched", "live"],
    ["starting", "launch-failed", "ended"],
    ["starting", "ending-written", null],
    ["live", "ending-written", "ending"],
    ["live", "ended-written", null], // never ended without "ending" written first
    ["live", "ended-elsewhere", "ended"],
    ["ending", "ended-written", "ended"],
    ["ending", "ending-written", "ending"], // a retried End
    ["ending", "launched", null],
    ["ended", "ended-written", null],
    ["ended", "launched", null],
    ["live", "lease-lost", "ending"], // the agent stops at once; the final write waits for the database
    ["starting", "lease-lost", "ending"],
    ["ending", "lease-lost", null], // already stopping
    ["ended", "lease-lost", null],
  ];
  it.each(table)("%s + %s -> %s", (phase, event, next) => expect(nextPhase(phase, event)).toBe(next));
});

describe("phaseOf", () => {
  it.each([
    ["starting", null, "starting"],
    ["live", null, "live"],
    ["ending", null, "ending"],
    ["ended", new Date(), "ended"],
    ["ending", new Date(), "ended"],
    ["something-old", null, "live"],
  ] as const)("%s (ended %s) is %s", (status, endedAt, phase) => expect(phaseOf(status, endedAt)).toBe(phase));
});

describe("keepDecision", () => {
  it("keeps a watched session with no deadline", () => {
    expect(keepDecision({ ...base, viewers: 2, lastViewerLeftAt: null })).toEqual({ kind: "keep", until: null, why: "watched" });
  });
  it("runs grace from the last viewer leaving", () => {
    expect(keepDecision(base)).toEqual({ kind: "keep", until: 1_005 * MIN, why: "grace" });
    expect(keepDecision({ ...base, now: 1_005 * MIN })).toEqual({ kind: "end", reason: "grace-expired" });
  });
  it("ends a session nobody ever opened", () => {
    const fresh = { ...base, attachedOnce: false, lastViewerLeftAt: null, startedAt: 999 * MIN };
    expect(keepDecision(fresh)).toEqual({ kind: "keep", until: 1_000.5 * MIN, why: "waiting" });
    expect(keepDecision({ ...fresh, now: 1_001 * MIN })).toEqual({ kind: "end", reason: "never-attached" });
  });
  it("keeps a paused session past the grace window, for the pause bound", () => {
    const paused = { ...base, pausedAt: 989 * MIN };
    // 20 minutes with no page: grace alone would have ended it.
    expect(keepDecision({ ...paused, now: 1_010 * MIN })).toEqual({ kind: "keep", until: (989 + 180 + 15) * MIN, why: "paused" });
    expect(keepDecision({ ...paused, now: (989 + 180 + 14) * MIN }).kind).toBe("keep");
    expect(keepDecision({ ...paused, now: (989 + 180 + 15) * MIN })).toEqual({ kind: "end", reason: "grace-expired" });
  });
  it("counts grace from the resume, not from when the page left before the break", () => {
    const resumed = { ...base, lastViewerLeftAt: 800 * MIN, resumedAt: 995 * MIN };
    expect(keepDecision(resumed)).toEqual({ kind: "keep", until: 1_010 * MIN, why: "grace" });
  });
  it("a pause also keeps a session that was never opened", () => {
    const fresh = { ...base, attachedOnce: false, lastViewerLeftAt: null, startedAt: 999 * MIN, pausedAt: 999.5 * MIN, now: 1_030 * MIN };
    expect(keepDecision(fresh)).toEqual({ kind: "keep", until: (999.5 + 195) * MIN, why: "paused" });
  });
});

describe("graceWarning", () => {
  const LEAD = 5 * MIN;
  const table: [string, KeepFacts, number | null][] = [
    ["watched: no end to warn about", { ...base, viewers: 1, lastViewerLeftAt: null }, null],
    ["grace with 5 minutes left: warn, naming the end", base, 1_005 * MIN],
    ["grace with 6 minutes left: not yet", { ...base, lastViewerLeftAt: 991 * MIN }, null],
    ["grace with 5 minutes and a millisecond left: not yet", { ...base, lastViewerLeftAt: 990 * MIN + 1 }, null],
    [
      "paused, the pause bound plus grace 5 minutes away: warn",
      { ...base, pausedAt: 989 * MIN, now: (989 + 190) * MIN },
      (989 + 195) * MIN,
    ],
    ["paused, 20 minutes in: not yet", { ...base, pausedAt: 989 * MIN, now: 1_009 * MIN }, null],
    ["never opened (being opened now): no warning", { ...base, attachedOnce: false, lastViewerLeftAt: null, startedAt: 999 * MIN }, null],
    ["already over: the keeper ends it instead", { ...base, now: 1_006 * MIN }, null],
  ];
  it.each(table)("%s", (_name, facts, expected) => expect(graceWarning(keepDecision(facts), facts.now, LEAD)).toBe(expected));
  it("a grace window shorter than the lead warns as soon as the last viewer leaves", () => {
    const short = { ...base, graceMs: 2 * MIN, lastViewerLeftAt: 1_000 * MIN };
    expect(graceWarning(keepDecision(short), short.now, LEAD)).toBe(1_002 * MIN);
  });
});
