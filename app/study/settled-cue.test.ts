import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SettledCue } from "./settled-cue";

describe("SettledCue", () => {
  let shown: (string | null)[];
  let cue: SettledCue;
  beforeEach(() => {
    vi.useFakeTimers();
    shown = [];
    cue = new SettledCue(1_000, (c) => shown.push(c));
  });
  afterEach(() => {
    cue.dispose();
    vi.useRealTimers();
  });

  it("shows a cue only once it has held for the settle time", () => {
    cue.set("Sized for your laptop");
    vi.advanceTimersByTime(999);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(["Sized for your laptop"]);
  });

  it("never shows a cue that goes before it settles (the active device's own resize on its way)", () => {
    for (let i = 0; i < 5; i++) {
      cue.set("Sized for your other laptop");
      vi.advanceTimersByTime(300);
      cue.set(null);
      vi.advanceTimersByTime(300);
    }
    vi.advanceTimersByTime(5_000);
    expect(shown).toEqual([]);
  });

  it("a cue set again while waiting does not restart the wait", () => {
    cue.set("Sized for your phone");
    vi.advanceTimersByTime(600);
    cue.set("Sized for your phone");
    vi.advanceTimersByTime(400);
    expect(shown).toEqual(["Sized for your phone"]);
  });

  it("hides at once, and changes words at once while shown", () => {
    cue.set("Sized for your phone");
    vi.advanceTimersByTime(1_000);
    cue.set("Sized for your laptop");
    cue.set(null);
    expect(shown).toEqual(["Sized for your phone", "Sized for your laptop", null]);
  });

  it("shows nothing after it is disposed", () => {
    cue.set("Sized for your phone");
    cue.dispose();
    vi.advanceTimersByTime(2_000);
    expect(shown).toEqual([]);
  });
});
