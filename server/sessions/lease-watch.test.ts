import { describe, expect, it } from "vitest";
import { lapsedLeases, leaseMarginMs, type LeaseHolder } from "./lease-watch.ts";

const LEASE_MS = 30_000;
const MARGIN_MS = leaseMarginMs(5_000);
const holder = (over: Partial<LeaseHolder>): LeaseHolder => ({ id: "s", phase: "live", ending: false, leaseRenewedAt: 0, ...over });

describe("lapsedLeases", () => {
  it("leaves several heartbeats of margin", () => {
    expect(MARGIN_MS).toBe(10_000);
  });

  it.each<[string, Partial<LeaseHolder>, number, boolean]>([
    ["renewed just now: kept", {}, 1, false],
    ["one heartbeat late: kept", {}, 10_000, false],
    ["just short of the margin: kept", {}, LEASE_MS - MARGIN_MS - 1, false],
    ["the margin reached: looked at before any other host may end it", {}, LEASE_MS - MARGIN_MS, true],
    ["long past the lease: looked at", {}, LEASE_MS * 3, true],
    ["a session still starting: its reservation is renewed elsewhere", { phase: "starting" }, LEASE_MS * 3, false],
    ["a session already ending: its end is in flight", { phase: "ending" }, LEASE_MS * 3, false],
    ["an end in flight on a live session", { ending: true }, LEASE_MS * 3, false],
  ])("%s", (_name, over, nowMs, lapsed) => {
    expect(lapsedLeases([holder(over)], nowMs, LEASE_MS, MARGIN_MS).length).toBe(lapsed ? 1 : 0);
  });

  it("says how long each lapsed lease went unrenewed", () => {
    const holders = [holder({ id: "a", leaseRenewedAt: 1_000 }), holder({ id: "b", leaseRenewedAt: 20_000 })];
    expect(lapsedLeases(holders, 21_000, LEASE_MS, MARGIN_MS)).toEqual([{ id: "a", silentMs: 20_000 }]);
  });
});
