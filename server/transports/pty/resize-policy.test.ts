// Table tests for the resize policy: the device that claimed the size last (typed, or asked) sets it.
import { describe, expect, it } from "vitest";
import { clampTerminalSize, decideTerminalSize, isDeviceActivity, TerminalSizeLimits, type ViewerSizeFacts } from "./resize-policy.ts";

const current = { cols: 80, rows: 24 };
const laptop = { cols: 200, rows: 50 };
const phone = { cols: 40, rows: 20 };

const viewer = (viewerId: string, size: ViewerSizeFacts["size"], claimedAt?: number): ViewerSizeFacts => ({ viewerId, size, claimedAt });

const cases: { name: string; viewers: ViewerSizeFacts[]; latest?: number; expected: { cols: number; rows: number } }[] = [
  { name: "nobody attached: keep the current size", viewers: [], expected: current },
  { name: "attached but no size reported: keep the current size", viewers: [viewer("laptop", undefined, 5)], expected: current },
  {
    name: "a size reported without a claim (a reload, a late attach): keep the current size",
    viewers: [viewer("laptop", laptop)],
    expected: current,
  },
  { name: "one viewer that claimed: its size", viewers: [viewer("laptop", laptop, 1)], expected: laptop },
  {
    name: "the laptop claimed: a phone attaching later does not shrink it",
    viewers: [viewer("laptop", laptop, 3), viewer("phone", phone)],
    expected: laptop,
  },
  { name: "the phone claimed last: the phone's size", viewers: [viewer("laptop", laptop, 3), viewer("phone", phone, 5)], expected: phone },
  { name: "the active device left: the others keep the size", viewers: [viewer("phone", phone)], expected: current },
  {
    name: "the active device left (a reload): an earlier claimant does not take the size back",
    viewers: [viewer("phone", phone, 2)],
    latest: 7,
    expected: current,
  },
  {
    name: "the latest claimant has reported no size yet: keep the size",
    viewers: [viewer("laptop", laptop, 3), viewer("phone", undefined, 9)],
    expected: current,
  },
  {
    name: "oversized report is clamped",
    viewers: [viewer("laptop", { cols: 50_000, rows: 50_000 }, 1)],
    expected: { cols: TerminalSizeLimits.MAX_COLS, rows: TerminalSizeLimits.MAX_ROWS },
  },
  {
    name: "zero, negative and fractional sizes are clamped and floored",
    viewers: [viewer("laptop", { cols: 0, rows: 10.7 }, 1)],
    expected: { cols: TerminalSizeLimits.MIN_COLS, rows: 10 },
  },
];

describe("decideTerminalSize", () => {
  it.each(cases)("$name", ({ viewers, latest, expected }) => {
    const latestClaim =
      latest ??
      viewers.reduce<number | undefined>(
        (max, v) => (v.claimedAt !== undefined && (max === undefined || v.claimedAt > max) ? v.claimedAt : max),
        undefined,
      );
    expect(decideTerminalSize(current, viewers, latestClaim)).toEqual(expected);
  });
});

describe("isDeviceActivity", () => {
  it.each([
    ["a key", "a", true],
    ["Enter", "\r", true],
    ["an arrow key", "\x1b[A", true],
    ["Ctrl+F3 (looks like a cursor report, is a key)", "\x1b[1;5R", true],
    ["a mouse click in SGR encoding", "\x1b[<0;3;4M", true],
    ["a paste", "\x1b[200~text\x1b[201~", true],
    ["focus in", "\x1b[I", false],
    ["focus out", "\x1b[O", false],
    ["a DA1 answer", "\x1b[?1;2c", false],
    ["a DA2 answer", "\x1b[>0;276;0c", false],
    ["a DECRQM answer", "\x1b[?2004;2$y", false],
    ["an OSC 11 answer", "\x1b]11;rgb:1010/1212/1515\x1b\\", false],
    ["an XTVERSION answer", "\x1bP>|xterm.js(6.0.0)\x1b\\", false],
  ])("%s", (_name, data, expected) => {
    expect(isDeviceActivity(data)).toBe(expected);
  });
});

describe("clampTerminalSize", () => {
  it("maps NaN and infinities to the minimum", () => {
    expect(clampTerminalSize({ cols: Number.NaN, rows: Number.POSITIVE_INFINITY })).toEqual({
      cols: TerminalSizeLimits.MIN_COLS,
      rows: TerminalSizeLimits.MIN_ROWS,
    });
  });
});
