import { afterEach, describe, expect, it, vi } from "vitest";
import { loadTrim, MemoryTrimLimits, MemoryTrimmer, trimDue } from "./memory-trim.ts";

const MB = 1024 * 1024;
const { GROWTH_BYTES, SETTLED_BYTES, CHECK_MS } = MemoryTrimLimits;

describe("trimDue", () => {
  const base = 150 * MB;
  const table: [string, { now: number; lastLook: number; afterLastTrim: number }, boolean][] = [
    ["no trim yet", { now: base, lastLook: base, afterLastTrim: Number.POSITIVE_INFINITY }, false],
    ["grown by less than the limit", { now: base + GROWTH_BYTES - 1, lastLook: base + GROWTH_BYTES - 1, afterLastTrim: base }, false],
    ["grown by the limit and settled", { now: base + GROWTH_BYTES, lastLook: base + GROWTH_BYTES, afterLastTrim: base }, true],
    ["grown, still growing (a flood)", { now: base + 3 * GROWTH_BYTES, lastLook: base + 2 * GROWTH_BYTES, afterLastTrim: base }, false],
    ["grown, shrinking fast", { now: base + 2 * GROWTH_BYTES, lastLook: base + 3 * GROWTH_BYTES, afterLastTrim: base }, false],
    [
      "grown, moving less than the settled limit",
      { now: base + GROWTH_BYTES + SETTLED_BYTES - 1, lastLook: base + GROWTH_BYTES, afterLastTrim: base },
      true,
    ],
    ["smaller than after the last trim", { now: base - MB, lastLook: base - MB, afterLastTrim: base }, false],
  ];
  it.each(table)("%s", (_name, rss, due) => expect(trimDue(rss)).toBe(due));
});

describe("MemoryTrimmer", () => {
  afterEach(() => vi.useRealTimers());

  it("trims at start, then once the process has grown and settled, and never after stop", async () => {
    vi.useFakeTimers();
    let rss = 200 * MB;
    const trim = vi.fn(async () => {
      rss -= 30 * MB;
      return true;
    });
    const trimmer = new MemoryTrimmer(trim, () => rss);
    trimmer.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(trim).toHaveBeenCalledTimes(1);
    // A flood: growing at every look.
    for (let i = 0; i < 4; i++) {
      rss += GROWTH_BYTES;
      await vi.advanceTimersByTimeAsync(CHECK_MS);
    }
    expect(trim).toHaveBeenCalledTimes(1);
    // It settles: the next look trims.
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(trim).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(CHECK_MS * 3);
    expect(trim).toHaveBeenCalledTimes(2);
    trimmer.stop();
    rss += 100 * MB;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 3);
    trimmer.start();
    expect(trim).toHaveBeenCalledTimes(2);
  });

  it("a trim that fails is not fatal and the next growth tries again", async () => {
    vi.useFakeTimers();
    let rss = 100 * MB;
    const trim = vi.fn(() => Promise.reject(new Error("no")));
    const trimmer = new MemoryTrimmer(trim, () => rss);
    trimmer.start();
    await vi.advanceTimersByTimeAsync(0);
    rss += GROWTH_BYTES;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 2);
    expect(trim).toHaveBeenCalledTimes(2);
    trimmer.stop();
  });
});

describe("the native addon", () => {
  it.runIf(process.platform === "linux")("is built, loads and runs off the event loop", async () => {
    const trim = loadTrim();
    expect(trim, "native/malloc-trim is built by npm install (scripts/build-native.mjs)").toBeTypeOf("function");
    const pending = trim!();
    expect(pending).toBeInstanceOf(Promise);
    expect(typeof (await pending)).toBe("boolean");
  });

  it("is undefined where it is not built", () => {
    expect(loadTrim("/nonexistent")).toBeUndefined();
  });
});
