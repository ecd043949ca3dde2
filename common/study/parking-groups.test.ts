import { describe, expect, it } from "vitest";
import { foldParkingLot, parkingGroupOf } from "./parking-groups.ts";
import type { ParkedStatus, ParkedView } from "./study-view.ts";

const item = (n: number, status: ParkedStatus): ParkedView => ({
  id: `p${n}`,
  sessionId: null,
  sessionTopic: null,
  text: `thought ${n}`,
  source: "learner",
  status,
  createdAt: new Date(2026, 0, 1, 0, 1000 - n).toISOString(),
  resolvedAt: null,
  carriedFromId: null,
});

describe("parking lot groups", () => {
  it.each([
    ["pending", "pending"],
    ["carried", "carried"],
    ["resolved", "done"],
    ["dismissed", "done"],
  ] as const)("a %s thought is in the %s group", (status, group) => {
    expect(parkingGroupOf(status)).toBe(group);
  });

  it.each([
    { name: "an empty lot", lot: [], page: 2, ids: [], counts: { pending: 0, carried: 0, done: 0 } },
    {
      name: "groups under the page, whole",
      lot: [item(1, "pending"), item(2, "resolved"), item(3, "carried")],
      page: 2,
      ids: ["p1", "p2", "p3"],
      counts: { pending: 1, carried: 1, done: 1 },
    },
    {
      name: "each group cut at the page, newest kept, the lot's order kept",
      lot: [item(1, "pending"), item(2, "dismissed"), item(3, "pending"), item(4, "resolved"), item(5, "pending"), item(6, "resolved")],
      page: 2,
      ids: ["p1", "p2", "p3", "p4"],
      counts: { pending: 3, carried: 0, done: 3 },
    },
    {
      name: "a page of 0 keeps only the counts",
      lot: [item(1, "carried"), item(2, "carried")],
      page: 0,
      ids: [],
      counts: { pending: 0, carried: 2, done: 0 },
    },
  ])("$name", ({ lot, page, ids, counts }) => {
    const folded = foldParkingLot(lot, page);
    expect(folded.items.map((i) => i.id)).toEqual(ids);
    expect(folded.counts).toEqual(counts);
  });
});
