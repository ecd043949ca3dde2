// TurnKeeper with fake timers: the watchdog counts from the agent's last event, Stop gives the agent
// a grace before the turn is ended here, and a turn ends once, naming who stopped it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnKeeper } from "./turn-keeper.ts";

describe("TurnKeeper", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function keeper() {
    const heard: Array<"silent" | Record<string, unknown>> = [];
    const turns = new TurnKeeper(1_000, 300, { silent: () => heard.push("silent"), ended: (payload) => heard.push(payload) });
    return { turns, heard, turn: Promise.resolve() };
  }

  it("reports a turn silent for the time-out, counted from the agent's last event", () => {
    const { turns, heard, turn } = keeper();
    turns.begin(turn);
    vi.advanceTimersByTime(900);
    turns.alive();
    vi.advanceTimersByTime(900);
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(heard).toEqual(["silent"]);
    expect(turns.running).toBe(true);
  });

  it("ends a stopped turn after the grace when the agent does not, and ignores its late answer", () => {
    const { turns, heard, turn } = keeper();
    turns.begin(turn);
    turns.stop("learner");
    expect(turns.stopping).toBe(true);
    vi.advanceTimersByTime(299);
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(heard).toEqual([{ stopReason: "cancelled", stoppedBy: "learner", agentIgnoredStop: true }]);
    turns.end(turn, { stopReason: "cancelled" });
    vi.advanceTimersByTime(5_000);
    expect(heard).toHaveLength(1);
    expect([turns.running, turns.stopping]).toEqual([false, false]);
  });

  it("names who stopped a turn the agent cancelled itself, and leaves other endings as they are", () => {
    const { turns, heard, turn } = keeper();
    turns.begin(turn);
    turns.stop("timeout");
    turns.end(turn, { stopReason: "cancelled" });
    const next = Promise.resolve();
    turns.begin(next);
    turns.end(next, { stopReason: "end_turn" });
    vi.advanceTimersByTime(5_000);
    expect(heard).toEqual([{ stopReason: "cancelled", stoppedBy: "timeout" }, { stopReason: "end_turn" }]);
  });

  it("forgets a turn without a turn_end when the agent is gone", () => {
    const { turns, heard, turn } = keeper();
    turns.begin(turn);
    turns.stop("learner");
    turns.drop();
    vi.advanceTimersByTime(5_000);
    expect(heard).toEqual([]);
    expect(turns.running).toBe(false);
  });
});
