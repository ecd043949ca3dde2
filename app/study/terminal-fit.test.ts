// Table tests: how a page shows a terminal sized for another device, and the words of its cue.
import { describe, expect, it } from "vitest";
import { fitView, sizeCue, TerminalFitLimits } from "./terminal-fit.ts";

describe("fitView", () => {
  it.each([
    ["fits: full size", { hostWidth: 800, naturalWidth: 640, phone: false }, { scale: 1, scroll: false }],
    ["exactly fits", { hostWidth: 640, naturalWidth: 640, phone: true }, { scale: 1, scroll: false }],
    [
      "a laptop's terminal on a narrower laptop window: scaled",
      { hostWidth: 600, naturalWidth: 800, phone: false },
      { scale: 0.75, scroll: false },
    ],
    ["a phone, a little too wide: scaled", { hostWidth: 360, naturalWidth: 500, phone: true }, { scale: 0.72, scroll: false }],
    ["a phone showing a laptop's terminal: scrolls", { hostWidth: 360, naturalWidth: 1200, phone: true }, { scale: 1, scroll: true }],
    [
      "a laptop, too few rows: scaled to show them all",
      { hostWidth: 800, naturalWidth: 640, hostHeight: 300, naturalHeight: 400, phone: false },
      { scale: 0.75, scroll: false },
    ],
    [
      "a phone, too few rows: scrolls down at full size",
      { hostWidth: 800, naturalWidth: 640, hostHeight: 300, naturalHeight: 400, phone: true },
      { scale: 1, scroll: false },
    ],
    ["not measured yet: full size", { hostWidth: 0, naturalWidth: 800, phone: false }, { scale: 1, scroll: false }],
  ])("%s", (_name, input, expected) => {
    expect(fitView(input)).toEqual(expected);
  });

  it("never scales a phone below the readable limit", () => {
    for (let width = 100; width < 3000; width += 37) {
      const view = fitView({ hostWidth: 360, naturalWidth: width, phone: true });
      expect(view.scroll || view.scale >= TerminalFitLimits.PHONE_MIN_SCALE).toBe(true);
    }
  });
});

describe("sizeCue", () => {
  const base = { cols: 150, rows: 40, fitCols: 47, fitRows: 30, sizedFor: "laptop" as const, device: "phone" as const };
  it.each([
    ["sized for the laptop, seen on the phone", base, "Sized for your laptop"],
    ["sized for this page's size: no cue", { ...base, fitCols: 150, fitRows: 40 }, null],
    ["only the rows differ: a cue", { ...base, fitCols: 150 }, "Sized for your laptop"],
    ["sized for a phone, seen on the other phone", { ...base, sizedFor: "phone" as const }, "Sized for your other phone"],
    ["nobody said: another screen", { ...base, sizedFor: undefined }, "Sized for another screen"],
    ["this page not measured yet: no cue", { ...base, fitCols: undefined }, null],
  ])("%s", (_name, input, expected) => {
    expect(sizeCue(input)).toBe(expected);
  });
});
