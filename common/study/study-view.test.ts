import { describe, expect, it } from "vitest";
import type { SessionView } from "../../server/sessions/session-view.ts";
import { buildTimeline, type MarkView, type ParkedView } from "./study-view.ts";
import type { NudgeRecord } from "./timer.ts";

const at = (minutes: number) => new Date(Date.parse("2026-03-02T09:00:00Z") + minutes * 60_000).toISOString();

function session(over: Partial<SessionView> = {}, nudges: NudgeRecord[] = []): SessionView {
  return {
    id: "s1",
    topic: "closures",
    energy: 3,
    agent: "tutor",
    transport: "pty",
    status: "ended",
    startedAt: at(0),
    endedAt: at(40),
    endReason: "ended-by-learner",
    exitCode: null,
    explanation: "You ended this session at 10:40.",
    durationMinutes: 40,
    focusPlan: "energy",
    focusMinutes: 15,
    breakMinutes: 5,
    winCount: 1,
    struggleCount: 0,
    summary: null,
    owner: { host: null, url: null, pid: null },
    muxSession: null,
    hasTranscript: false,
    timer: {
      startedAt: at(0),
      endedAt: at(40),
      pausedAt: null,
      pausedMs: 0,
      schedule: { focusMinutes: 15, breakMinutes: 5, longBreakMinutes: 10, longBreakEvery: 2 },
      minuteMs: 60_000,
      nudges,
    },
    keptUntil: null,
    lastLines: [],
    continuedFromId: null,
    canContinue: false,
    ...over,
  };
}

const mark = (minutes: number, topic: string): MarkView => ({
  id: `m${minutes}`,
  sessionId: "s1",
  topic,
  status: "win",
  note: null,
  source: "agent",
  createdAt: at(minutes),
});
const parked = (minutes: number, text: string): ParkedView => ({
  id: `p${minutes}`,
  sessionId: "s1",
  sessionTopic: "closures",
  text,
  source: "learner",
  status: "pending",
  createdAt: at(minutes),
  resolvedAt: null,
  carriedFromId: null,
});

describe("buildTimeline", () => {
  it("puts start, marks, parked items, nudges and the end in order, with offsets", () => {
    const nudge: NudgeRecord = {
      n: 1,
      focusMinute: 15,
      long: false,
      breakMinutes: 5,
      shownAt: at(15),
      answeredAt: at(16),
      answer: "break",
    };
    const timeline = buildTimeline(session({}, [nudge]), [mark(20, "closures")], [parked(5, "what is a monad?"), parked(30, "TCO")]);
    expect(timeline.map((e) => [e.kind, e.offsetMs / 60_000])).toEqual([
      ["start", 0],
      ["parked", 5],
      ["nudge", 15],
      ["mark", 20],
      ["parked", 30],
      ["end", 40],
    ]);
    expect(timeline[2]).toMatchObject({ text: "Break nudge after 15 min of focus (a short 5 min break): took the break." });
    expect(timeline.at(-1)).toMatchObject({ text: "You ended this session at 10:40." });
  });

  it("keeps start first and end last even when a clock was off", () => {
    const timeline = buildTimeline(session({ endedAt: at(10) }), [mark(-1, "early"), mark(12, "late")], []);
    expect(timeline.map((e) => e.kind)).toEqual(["start", "mark", "mark", "end"]);
    expect(timeline[1]!.offsetMs).toBe(0);
  });

  it("has no end while the session is live", () => {
    expect(buildTimeline(session({ endedAt: null, status: "live" }), [], []).map((e) => e.kind)).toEqual(["start"]);
  });
});
