import { describe, expect, it } from "vitest";
import { parseRemembered } from "./remembered-choices.ts";

describe("remembered start choices", () => {
  it.each([
    [null, {}],
    ["", {}],
    ["{", {}],
    ['{"focusPlan":"pomodoro","agent":"claude"}', { focusPlan: "pomodoro", agent: "claude" }],
    ['{"focusPlan":"tomato"}', {}],
    ['{"agent":"tutor","extra":1}', { agent: "tutor" }],
    ['{"agent":"claude","transport":"acp"}', { agent: "claude", transport: "acp" }],
    ['{"transport":"tmux"}', {}],
  ])("%j reads as %j", (text, expected) => {
    expect(parseRemembered(text)).toEqual(expected);
  });
});
