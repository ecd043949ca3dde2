// The parking lot's groups (what is left to do with each thought) and how much of each the page
// renders at first. A lot of 500 thoughts rendered with their buttons, and sent again whole as the
// list's props, was the largest page (467 KB, docs/performance.md "Round 7: history"): the page now
// sends and shows the newest PARKING_GROUP_PAGE of each group and the size of each, and the rest
// is read when the learner asks for it.
import type { ParkedStatus, ParkedView } from "./study-view.ts";

export const PARKING_GROUPS = [
  { id: "pending", title: "To look at", empty: "Nothing waiting. Thoughts you park during a session show up here.", statuses: ["pending"] },
  { id: "carried", title: "Carried into your next session", empty: "Nothing carried over.", statuses: ["carried"] },
  { id: "done", title: "Done", empty: "Nothing resolved or dismissed yet.", statuses: ["resolved", "dismissed"] },
] as const satisfies ReadonlyArray<{ id: string; title: string; empty: string; statuses: readonly ParkedStatus[] }>;

export type ParkingGroupId = (typeof PARKING_GROUPS)[number]["id"];

/** Thoughts a group shows until the learner asks for the rest (newest first). */
export const PARKING_GROUP_PAGE = 50;

export function parkingGroupOf(status: ParkedStatus): ParkingGroupId {
  return PARKING_GROUPS.find((g) => (g.statuses as readonly ParkedStatus[]).includes(status))!.id;
}

export interface FoldedParkingLot {
  /** The newest `page` of each group, in the lot's order. */
  readonly items: ParkedView[];
  /** How many thoughts each group holds in the whole lot. */
  readonly counts: Record<ParkingGroupId, number>;
}

/** The first `page` thoughts of each group (the lot is newest first) and each group's size. Pure. */
export function foldParkingLot(lot: readonly ParkedView[], page = PARKING_GROUP_PAGE): FoldedParkingLot {
  const counts: Record<ParkingGroupId, number> = { pending: 0, carried: 0, done: 0 };
  const items: ParkedView[] = [];
  for (const item of lot) {
    const group = parkingGroupOf(item.status);
    if (counts[group]++ < page) items.push(item);
  }
  return { items, counts };
}
