import { describe, expect, it } from "vitest";
import { BAR_KEYS, KeyBarKeys, arrowSequence, withCtrl } from "./key-bar-keys.ts";

function bar(application = false) {
  const sent: string[] = [];
  const keys = new KeyBarKeys();
  keys.connect({ send: (d) => sent.push(d), applicationCursor: () => application });
  return { keys, sent };
}

describe("withCtrl", () => {
  it.each([
    ["c", "\x03"],
    ["C", "\x03"],
    ["a", "\x01"],
    ["z", "\x1a"],
    ["d", "\x04"],
    ["[", "\x1b"],
    ["\\", "\x1c"],
    ["@", "\x00"],
    [" ", "\x00"],
    ["?", "\x7f"],
    ["1", "1"],
    ["é", "é"],
    ["ab", "ab"],
  ])("%j -> %j", (input, output) => expect(withCtrl(input)).toBe(output));
});

describe("arrowSequence", () => {
  it("uses CSI normally, SS3 in application cursor mode, CSI 1;5 with Ctrl", () => {
    expect(arrowSequence("ArrowUp", { application: false, ctrl: false })).toBe("\x1b[A");
    expect(arrowSequence("ArrowLeft", { application: true, ctrl: false })).toBe("\x1bOD");
    expect(arrowSequence("ArrowRight", { application: true, ctrl: true })).toBe("\x1b[1;5C");
  });
});

describe("KeyBarKeys", () => {
  it("sends what each key sends on a real keyboard", () => {
    const { keys, sent } = bar();
    for (const key of BAR_KEYS) if (key !== "Control") keys.press(key);
    expect(sent).toEqual(["\x1b", "\t", "\x03", "\x1b[D", "\x1b[B", "\x1b[A", "\x1b[C", "\r", "y", "n"]);
  });

  it("follows the program's cursor key mode", () => {
    const { keys, sent } = bar(true);
    keys.press("ArrowUp");
    expect(sent).toEqual(["\x1bOA"]);
  });

  it("a sticky Ctrl modifies the next key only, from the bar or the phone's keyboard", () => {
    const { keys, sent } = bar();
    const seen: boolean[] = [];
    keys.subscribe(() => seen.push(keys.ctrlArmed));
    keys.press("Control");
    expect(keys.ctrlArmed).toBe(true);
    keys.typed("d");
    keys.typed("d");
    keys.press("Control");
    keys.press("n");
    keys.press("Control");
    keys.press("ArrowUp");
    expect(sent).toEqual(["\x04", "d", "\x0e", "\x1b[1;5A"]);
    expect(seen).toEqual([true, false, true, false, true, false]);
  });

  it("pressing Ctrl twice disarms it; disconnecting drops it and sends nothing", () => {
    const { keys, sent } = bar();
    keys.press("Control");
    keys.press("Control");
    keys.typed("c");
    keys.press("Control");
    keys.disconnect();
    expect(keys.ctrlArmed).toBe(false);
    keys.press("Enter");
    expect(sent).toEqual(["c"]);
  });
});
