// The demo tutors' words (demo-replies.mjs): the topic read from TUTOR.md, each typed line's answer
// as steps, and the chat's Markdown answer.
import { describe, expect, it } from "vitest";
import { chatAnswer, demoReply, HELP_LINES, topicOf } from "./demo-replies.mjs";
import { tutorInstructions } from "../tutor-instructions.ts";

describe("topicOf", () => {
  it("reads the topic StudyLoop wrote in TUTOR.md", () => {
    expect(topicOf(tutorInstructions({ topic: "SQL lateral joins", energy: 5, focusMinutes: 25 }))).toBe("SQL lateral joins");
  });
  it("says 'your topic' without one", () => {
    expect(topicOf("")).toBe("your topic");
  });
});

describe("demoReply", () => {
  const runs = (line: string) => demoReply(line, "closures").flatMap((s) => (s.run ? [s.run] : []));
  it.each([
    ["park why is this lazy?", [["park", "why is this lazy?"]]],
    ["win", [["topic", "closures", "--status", "win", "--note", "got it"]]],
    ["stuck on the scope chain", [["topic", "closures", "--status", "struggling", "--note", "on the scope chain"]]],
    ["insight", [["topic", "closures", "--status", "insight", "--note", "a new way to see it"]]],
    [
      "card What is a closure? | A function and its scope",
      [["card", "What is a closure?", "A function and its scope", "--topic", "closures"]],
    ],
    ["cards", [["cards", "--topic", "closures"]]],
    ["recall scope chain", [["recall", "scope chain"]]],
    // Nothing to run without what it needs: a hint instead.
    ["park", []],
    ["card only a question", []],
    ["recall", []],
    ["why does this work?", []],
    ["hello", []],
  ])("%j runs %j", (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  it("answers help with the list, a question with the way to park it, bye with an exit", () => {
    expect(demoReply("help", "closures").map((s) => s.say)).toEqual(HELP_LINES);
    expect(demoReply("why does this work?", "closures").map((s) => s.say)).toContain("Park it for later instead: park why does this work?");
    expect(demoReply("bye", "closures").at(-1)).toEqual({ exit: 0 });
    expect(demoReply("   ", "closures")).toEqual([]);
  });
});

describe("chatAnswer", () => {
  it("is Markdown with a heading of the message, a table, code and math", () => {
    const text = chatAnswer("What *is* a [join]?", "SQL joins");
    expect(text.split("\n")[0]).toBe("## What is a join?");
    expect(text).toMatch(/\| What you see \| What the agent sent \|/);
    expect(text).toContain("```js");
    expect(text).toContain("$e^{i\\pi} + 1 = 0$");
  });
});
