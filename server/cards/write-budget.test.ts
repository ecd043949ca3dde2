import { describe, expect, it } from "vitest";
import { WriteBudget } from "./write-budget.ts";

describe("WriteBudget", () => {
  it("lets each client make its writes in the window, then says how long to wait", () => {
    let now = 1_000_000;
    const budget = new WriteBudget({ maxWrites: 3, windowMs: 60_000 }, () => now);
    expect([budget.take("a"), budget.take("a"), budget.take("a")]).toEqual([0, 0, 0]);
    expect(budget.take("a")).toBe(60_000);
    expect(budget.take("b")).toBe(0); // another client has its own budget
    now += 30_000;
    expect(budget.take("a")).toBe(30_000); // a refused write is not counted
    now += 30_000;
    expect(budget.take("a")).toBe(0); // the oldest write left the window
  });
});
