import { createEmptyCard, fsrs, generatorParameters, type Grade } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import {
  formatWait,
  newState,
  preview,
  ratingName,
  ratingNumber,
  recallChance,
  replay,
  schedule,
  type RatingNumber,
} from "./scheduling.ts";

const T0 = new Date("2026-12-01T09:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** ts-fsrs on its own, fed the same history: what our adapter must agree with. */
function direct(history: { rating: RatingNumber; reviewedAt: Date }[]) {
  const scheduler = fsrs(generatorParameters({ enable_fuzz: false }));
  let card = createEmptyCard(T0);
  for (const h of history) card = scheduler.next(card, h.reviewedAt, h.rating as Grade).card;
  return card;
}

describe("scheduling over ts-fsrs", () => {
  const histories: { name: string; history: { rating: RatingNumber; reviewedAt: Date }[] }[] = [
    { name: "one good", history: [{ rating: 3, reviewedAt: at(1) }] },
    {
      name: "again then good",
      history: [
        { rating: 1, reviewedAt: at(1) },
        { rating: 3, reviewedAt: at(12) },
      ],
    },
    {
      name: "easy, good a week later, hard, then a lapse",
      history: [
        { rating: 4, reviewedAt: at(1) },
        { rating: 3, reviewedAt: at(60 * 24 * 7) },
        { rating: 2, reviewedAt: at(60 * 24 * 30) },
        { rating: 1, reviewedAt: at(60 * 24 * 90) },
      ],
    },
  ];

  for (const { name, history } of histories) {
    it(`step by step and by replay, due dates match ts-fsrs run directly (${name})`, () => {
      let state = newState(T0);
      for (const h of history) state = schedule(state, h.rating, h.reviewedAt).after;
      const expected = direct(history);
      for (const got of [state, replay(T0, history)]) {
        expect(got.due.toISOString()).toBe(expected.due.toISOString());
        expect(got.stability).toBeCloseTo(expected.stability, 10);
        expect(got.difficulty).toBeCloseTo(expected.difficulty, 10);
        expect(got.state).toBe(expected.state);
        expect(got.reps).toBe(expected.reps);
        expect(got.lapses).toBe(expected.lapses);
      }
    });
  }

  it("different answers give different, ordered waits", () => {
    const state = schedule(newState(T0), 3, at(1)).after;
    const next = preview(state, at(60 * 24 * 3));
    expect(next.again.getTime()).toBeLessThan(next.hard.getTime());
    expect(next.hard.getTime()).toBeLessThanOrEqual(next.good.getTime());
    expect(next.good.getTime()).toBeLessThan(next.easy.getTime());
  });

  it("recall chance: none for a new card, high just after a review, lower later", () => {
    expect(recallChance(newState(T0), T0)).toBeNull();
    const state = schedule(schedule(newState(T0), 3, at(1)).after, 3, at(20)).after;
    const soon = recallChance(state, at(21))!;
    const later = recallChance(state, at(60 * 24 * 60))!;
    expect(soon).toBeGreaterThan(0.95);
    expect(later).toBeLessThan(soon);
  });

  it.each([
    [0.5, "1m"],
    [10, "10m"],
    [90, "2h"],
    [60 * 24 * 3, "3d"],
    [60 * 24 * 65, "2mo"],
    [60 * 24 * 400, "1.1y"],
  ])("a wait of %s minutes reads %s", (minutes, text) => {
    expect(formatWait(T0, at(minutes))).toBe(text);
  });

  it("ratings by name and number", () => {
    expect(ratingNumber("again")).toBe(1);
    expect(ratingNumber("easy")).toBe(4);
    expect(ratingName(2)).toBe("hard");
  });
});
