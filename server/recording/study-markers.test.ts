import { describe, expect, it } from "vitest";
import { endedLabel, markerLabels, NO_FACTS, shorten, type StudyFacts } from "./study-markers.ts";
import { chapterTitle } from "../../common/transcript-text.ts";

const facts = (over: Partial<StudyFacts>): StudyFacts => ({ ...NO_FACTS, ...over });
const mark = (id: string, status: string, topic: string) => ({ id, status, topic });

describe("markerLabels", () => {
  it.each<[string, StudyFacts, StudyFacts, string[]]>([
    ["nothing changed", NO_FACTS, NO_FACTS, []],
    [
      "a mark of each kind",
      NO_FACTS,
      facts({
        marks: [mark("1", "win", "closures"), mark("2", "struggling", "recursion"), mark("3", "insight", "a"), mark("4", "learning", "b")],
      }),
      ["win: closures", "struggling: recursion", "insight: a", "learning: b"],
    ],
    [
      "only new marks",
      facts({ marks: [mark("1", "win", "closures")] }),
      facts({ marks: [mark("1", "win", "closures"), mark("2", "win", "loops")] }),
      ["win: loops"],
    ],
    ["a parked thought", NO_FACTS, facts({ parked: [{ id: "p", text: "why   does\nyield pause?" }] }), ["parked: why does yield pause?"]],
    ["two breaks due", facts({ nudges: 1 }), facts({ nudges: 3 }), ["break due", "break due"]],
    ["paused", NO_FACTS, facts({ paused: true }), ["paused"]],
    ["resumed", facts({ paused: true }), NO_FACTS, ["resumed"]],
    ["a mark removed is not news", facts({ marks: [mark("1", "win", "x")] }), NO_FACTS, []],
  ])("%s", (_name, before, after, labels) => {
    expect(markerLabels(before, after)).toEqual(labels);
  });

  it("keeps labels short enough for the timeline", () => {
    expect(shorten("x".repeat(100))).toHaveLength(60);
    expect(shorten("x".repeat(100)).endsWith("…")).toBe(true);
  });

  it("says how the session ended, and names it as a chapter", () => {
    expect(endedLabel("ended-by-learner")).toBe("ended");
    expect(endedLabel("agent-exited")).toBe("ended: agent exited");
    expect(chapterTitle("struggling: recursion", 761.3)).toBe("struggling: recursion · 12:41");
    expect(chapterTitle("ended", 3723)).toBe("ended · 1:02:03");
  });
});
