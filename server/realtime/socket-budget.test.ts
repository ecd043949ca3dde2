import { describe, expect, it } from "vitest";
import { EventBudget, SocketSlots } from "./socket-budget.ts";

describe("SocketSlots", () => {
  it("admits up to the limit per address, then refuses that address with a sentence, not others", () => {
    const slots = new SocketSlots(10, 2);
    expect(slots.admit("a")).toBeNull();
    expect(slots.admit("a")).toBeNull();
    expect(slots.admit("a")).toBe(
      "This device has 2 connections open to StudyLoop, its most: close some StudyLoop tabs, then reload this page.",
    );
    expect(slots.admit("b")).toBeNull();
    expect(slots.open).toBe(3);
    slots.release("a");
    expect(slots.admit("a")).toBeNull();
  });

  it("refuses everyone once the total is reached, and admits again after a release", () => {
    const slots = new SocketSlots(2, 5);
    expect(slots.admit("a")).toBeNull();
    expect(slots.admit("b")).toBeNull();
    expect(slots.admit("c")).toMatch(/^StudyLoop has 2 connections open, its most/);
    slots.release("b");
    expect(slots.admit("c")).toBeNull();
  });

  it("a refusal takes nothing, and a release of an unknown address changes nothing", () => {
    const slots = new SocketSlots(1, 1);
    expect(slots.admit("a")).toBeNull();
    expect(slots.admit("a")).not.toBeNull();
    slots.release("zzz");
    expect(slots.open).toBe(1);
    slots.release("a");
    expect(slots.open).toBe(0);
    slots.release("a");
    expect(slots.open).toBe(0);
  });
});

describe("EventBudget", () => {
  it("allows a burst, then the rate", () => {
    let now = 0;
    const budget = new EventBudget(10, 5, () => now);
    for (let i = 0; i < 5; i++) expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
    now += 100; // one event's worth at 10 a second
    expect(budget.take()).toBe(true);
    expect(budget.take()).toBe(false);
  });

  it("refills to the burst, never past it", () => {
    let now = 0;
    const budget = new EventBudget(10, 3, () => now);
    for (let i = 0; i < 3; i++) budget.take();
    now += 60_000;
    let taken = 0;
    while (budget.take()) taken++;
    expect(taken).toBe(3);
  });
});
