import { describe, expect, it } from "vitest";
import { isFailedEmptySession } from "./failed-sessions.ts";

const base = {
  status: "ended",
  endReason: "startup-failed",
  durationMinutes: 0,
  winCount: 0,
  struggleCount: 0,
  summary: null,
} as const;
const summary = { focusMinutes: 0, wins: [], struggles: [], parked: [] as string[], forNextSession: [] };

describe("isFailedEmptySession", () => {
  it.each([
    ["a start that failed at once", {}, true],
    ["an agent that exited in its first minute", { endReason: "agent-exited" }, true],
    ["a session never opened", { endReason: "never-attached" }, true],
    ["ended by the learner, even at once", { endReason: "ended-by-learner" }, false],
    ["a failure after a minute of study", { durationMinutes: 1 }, false],
    ["a failure with a win marked", { winCount: 1 }, false],
    ["a failure with a struggle marked", { struggleCount: 1 }, false],
    ["a failure with a parked thought", { summary: { ...summary, parked: ["why?"] } }, false],
    ["a live session", { status: "live", endReason: null, durationMinutes: null }, false],
  ])("%s: %s", (_name, change, hidden) => {
    expect(isFailedEmptySession({ ...base, ...change } as Parameters<typeof isFailedEmptySession>[0])).toBe(hidden);
  });
});
