import { afterEach, describe, expect, it } from "vitest";
import { countDelta } from "../sessions/study-writes.ts";
import { makeTestCoreOn, START, type TestCore } from "../sessions/test-support.ts";
import { testProviders } from "../db/test-storage.ts";
import { StudyLog } from "./study-log.ts";

describe("countDelta", () => {
  it.each([
    ["a new win", null, "win", { winCount: 1, struggleCount: 0 }],
    ["a new struggle", null, "struggling", { winCount: 0, struggleCount: 1 }],
    ["a new insight", null, "insight", { winCount: 0, struggleCount: 0 }],
    ["a win turned into a struggle", "win", "struggling", { winCount: -1, struggleCount: 1 }],
    ["a struggle turned into a win", "struggling", "win", { winCount: 1, struggleCount: -1 }],
    ["a win kept", "win", "win", { winCount: 0, struggleCount: 0 }],
    ["a win taken back", "win", null, { winCount: -1, struggleCount: 0 }],
    ["a learning mark taken back", "learning", null, { winCount: 0, struggleCount: 0 }],
  ])("%s", (_name, before, after, delta) => {
    expect(countDelta(before, after)).toEqual(delta);
  });
});

describe.each(testProviders())("on %s", (provider) => {
  describe("StudyEdits on a real database", () => {
    let core: TestCore | undefined;
    afterEach(async () => {
      await core?.close();
      core = undefined;
    });

    it("moves the session's win and struggle counts through the session store as marks are edited and taken back", async () => {
      core = await makeTestCoreOn(provider);
      const { session } = await core.service.start(START);
      const study = new StudyLog(core.db, core.service, core.service.events, { log: () => undefined });
      const counts = async () => {
        const row = await core!.db.studySession.findUniqueOrThrow({ where: { id: session.id } });
        return [row.winCount, row.struggleCount];
      };

      const first = await study.mark({ topic: "closures", status: "win" }, "learner", session.id);
      const second = await study.mark({ topic: "hoisting", status: "win" }, "learner", session.id);
      expect(await counts()).toEqual([2, 0]);

      await study.edits.editMark(first.id, { status: "struggling", note: "not yet" });
      expect(await counts()).toEqual([1, 1]);
      expect((await core.db.topicMark.findUniqueOrThrow({ where: { id: first.id } })).note).toBe("not yet");

      await study.edits.editMark(first.id, { note: "" });
      expect(await counts()).toEqual([1, 1]);

      await study.edits.removeMark(second.id);
      expect(await counts()).toEqual([0, 1]);
      expect(await core.db.topicMark.count({ where: { sessionId: session.id } })).toBe(1);
    });
  });
});
