import { describe, expect, it } from "vitest";
import { indexTurnDue, LearningRecordLimits } from "./learning-record.ts";
import { RecordIndexerLimits } from "./record-indexer.ts";

describe("indexTurnDue", () => {
  const turn = RecordIndexerLimits.TURN_MAX_BYTES;
  const most = LearningRecordLimits.MAX_DEFERRED_TURNS;
  it.each([
    ["nothing new: the turn runs (it has nothing to do)", 0, 0, true],
    ["a tutor's output, kilobytes: indexed as it comes", 4_000, 0, true],
    ["exactly what a turn takes in: runs", turn, 0, true],
    ["more than a turn takes in (a flood): put off", turn + 1, 0, false],
    ["still flooding, put off before", 10 * turn, most - 1, false],
    ["put off MAX_DEFERRED_TURNS in a row: runs even in a flood", 10 * turn, most, true],
    ["the flood calmed down after being put off: runs", 100, 3, true],
  ])("%s", (_name, grew, deferred, due) => {
    expect(indexTurnDue(grew, deferred)).toBe(due);
  });
});
