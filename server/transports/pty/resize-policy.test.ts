// Table tests for the resize policy: the device that typed last sets the size.
import { describe, expect, it } from "vitest";
import { clampTerminalSize, decideTerminalSize, TerminalSizeLimits, type ViewerSizeFacts } from "./resize-policy.ts";

const current = { cols: 80, rows: 24 };
const laptop = { cols: 200, rows: 50 };
const phone = { cols: 40, rows: 20 };

const viewer = (
  viewerId: string,
  size: ViewerSizeFacts["size"],
  typedAt?: number,
  sizedAt?: number,
): ViewerSizeFacts => ({ viewerId, size, typedAt, sizedAt });

const cases: { name: string; viewers: ViewerSizeFacts[]; expected: { cols: number; rows: number } }[] = [
  { name: "nobody attached: keep the current size", viewers: [], expected: current },
  {
    name: "attached but no size reported: keep the current size",
    viewers: [viewer("laptop", undefined, 5, undefined)],
    expected: current,
  },
  { name: "one viewer that reported a size: take it", viewers: [viewer("laptop", laptop, undefined, 1)], expected: laptop },
  {
    name: "nobody typed: the most recently sized viewer wins",
    viewers: [viewer("laptop", laptop, undefined, 1), viewer("phone", phone, undefined, 2)],
    expected: phone,
  },
  {
    name: "the laptop typed last: a phone attaching later does not shrink it",
    viewers: [viewer("laptop", laptop, 3, 1), viewer("phone", phone, undefined, 4)],
    expected: laptop,
  },
  {
    name: "the phone typed last: the phone's size",
    viewers: [viewer("laptop", laptop, 3, 1), viewer("phone", phone, 5, 4)],
    expected: phone,
  },
  {
    name: "the last typer resized its window: the new size",
    viewers: [viewer("laptop", { cols: 120, rows: 40 }, 3, 9), viewer("phone", phone, 2, 4)],
    expected: { cols: 120, rows: 40 },
  },
  {
    name: "a typer with no size yet is passed over for a sized typer",
    viewers: [viewer("laptop", laptop, 3, 1), viewer("phone", undefined, 9, undefined)],
    expected: laptop,
  },
  {
    name: "oversized report is clamped",
    viewers: [viewer("laptop", { cols: 50_000, rows: 50_000 }, 1, 1)],
    expected: { cols: TerminalSizeLimits.MAX_COLS, rows: TerminalSizeLimits.MAX_ROWS },
  },
  {
    name: "zero, negative and fractional sizes are clamped and floored",
    viewers: [viewer("laptop", { cols: 0, rows: 10.7 }, 1, 1)],
    expected: { cols: TerminalSizeLimits.MIN_COLS, rows: 10 },
  },
];

describe("decideTerminalSize", () => {
  it.each(cases)("$name", ({ viewers, expected }) => {
    expect(decideTerminalSize(current, viewers)).toEqual(expected);
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
