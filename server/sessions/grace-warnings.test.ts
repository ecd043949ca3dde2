import { describe, expect, it } from "vitest";
import { GraceWarnings } from "./grace-warnings.ts";

function tracker() {
  const said: unknown[][] = [];
  const grace = new GraceWarnings({ emit: ((...args: unknown[]) => said.push(args)) as never });
  return { grace, said };
}

describe("GraceWarnings", () => {
  it("warns once per window, withdraws it when watched again, and warns again in the next window", () => {
    const { grace, said } = tracker();
    grace.update("s", 1_000);
    grace.update("s", 1_000);
    grace.update("s", null);
    grace.update("s", null);
    grace.update("s", 5_000);
    expect(said).toEqual([
      ["grace-ending", "s", new Date(1_000)],
      ["grace-kept", "s"],
      ["grace-ending", "s", new Date(5_000)],
    ]);
  });

  it("says nothing when a session that was never warned is watched", () => {
    const { grace, said } = tracker();
    grace.update("s", null);
    expect(said).toEqual([]);
  });

  it("forgets ended sessions without withdrawing (the end says it), and sessions no longer run here", () => {
    const { grace, said } = tracker();
    grace.update("a", 1_000);
    grace.update("b", 1_000);
    grace.forget("a");
    grace.keepOnly((id) => id !== "b");
    grace.update("a", null);
    grace.update("b", null);
    expect(said.map((s) => s[0])).toEqual(["grace-ending", "grace-ending"]);
  });
});
