import { describe, expect, it } from "vitest";
import { awayLongEnough, dailyKey, planDeliveries, withdrawTargets, type DeviceState } from "./policy.ts";

const device = (id: string, over: Partial<DeviceState> = {}): DeviceState => ({
  id,
  pages: 0,
  looking: false,
  showsSession: false,
  system: false,
  push: false,
  ntfy: false,
  sound: true,
  ...over,
});

describe("planDeliveries", () => {
  const cases: { name: string; urgency: "urgent" | "normal" | "calm"; devices: DeviceState[]; want: unknown[] }[] = [
    { name: "no devices: nothing", urgency: "urgent", devices: [], want: [] },
    { name: "a device with nothing open and no channel gets nothing", urgency: "urgent", devices: [device("a")], want: [] },
    {
      name: "a hidden page with system notifications: the overlay and one system alert",
      urgency: "urgent",
      devices: [device("a", { pages: 1, system: true, push: true, ntfy: true })],
      want: [{ device: "a", page: true, quiet: false, sound: true, alert: "system" }],
    },
    {
      name: "system chosen but no page open: push comes next",
      urgency: "normal",
      devices: [device("a", { pages: 0, system: true, push: true, ntfy: true })],
      want: [{ device: "a", page: false, quiet: false, sound: false, alert: "push" }],
    },
    {
      name: "ntfy only",
      urgency: "normal",
      devices: [device("a", { ntfy: true })],
      want: [{ device: "a", page: false, quiet: false, sound: false, alert: "ntfy" }],
    },
    {
      name: "a hidden page and no channel: the in-page notice only",
      urgency: "normal",
      devices: [device("a", { pages: 2 })],
      want: [{ device: "a", page: true, quiet: false, sound: true, alert: null }],
    },
    {
      name: "calm never chimes",
      urgency: "calm",
      devices: [device("a", { pages: 1, sound: true })],
      want: [{ device: "a", page: true, quiet: false, sound: false, alert: null }],
    },
    {
      name: "sound off stays off",
      urgency: "urgent",
      devices: [device("a", { pages: 1, sound: false })],
      want: [{ device: "a", page: true, quiet: false, sound: false, alert: null }],
    },
    {
      name: "the learner looks at the session on one device: nothing anywhere",
      urgency: "urgent",
      devices: [
        device("laptop", { pages: 1, looking: true, showsSession: true, system: true }),
        device("phone", { push: true, ntfy: true }),
      ],
      want: [],
    },
    {
      name: "the learner looks at another page: a quiet overlay there, nothing elsewhere",
      urgency: "urgent",
      devices: [device("laptop", { pages: 1, looking: true, system: true }), device("phone", { pages: 1, system: true, push: true })],
      want: [{ device: "laptop", page: true, quiet: true, sound: false, alert: null }],
    },
    {
      name: "two devices away: one alert each",
      urgency: "normal",
      devices: [device("laptop", { pages: 1, system: true }), device("phone", { push: true })],
      want: [
        { device: "laptop", page: true, quiet: false, sound: true, alert: "system" },
        { device: "phone", page: false, quiet: false, sound: false, alert: "push" },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => expect(planDeliveries(c.urgency, c.devices)).toEqual(c.want));
  }

  it("a test goes to the one device asked for, through each of its channels, even while it is looked at", () => {
    const devices = [
      device("a", { pages: 1, looking: true, showsSession: true, system: true, push: true, ntfy: true }),
      device("b", { push: true }),
    ];
    expect(planDeliveries("normal", devices, { test: "a" })).toEqual([
      { device: "a", page: true, quiet: false, sound: true, alert: "system" },
      { device: "a", page: false, quiet: false, sound: false, alert: "push" },
      { device: "a", page: false, quiet: false, sound: false, alert: "ntfy" },
    ]);
    expect(planDeliveries("normal", devices, { test: "nobody" })).toEqual([]);
    expect(planDeliveries("normal", [device("c")], { test: "c" })).toEqual([]);
  });
});

describe("withdrawTargets", () => {
  const deliveries = [
    { device: "a", page: true, quiet: false, sound: true, alert: "system" as const },
    { device: "b", page: false, quiet: false, sound: false, alert: "push" as const },
    { device: "c", page: false, quiet: false, sound: false, alert: "ntfy" as const },
  ];
  it("skips the device that acted and channels that cannot withdraw", () => {
    expect(withdrawTargets(deliveries, "a").map((d) => d.device)).toEqual(["b"]);
    expect(withdrawTargets(deliveries, null).map((d) => d.device)).toEqual(["a", "b"]);
  });
});

describe("dailyKey and awayLongEnough", () => {
  it("one key per local calendar day", () => {
    expect(dailyKey("review-due", new Date(2026, 11, 1, 8, 0))).toBe("review-due:2026-12-01");
    expect(dailyKey("review-due", new Date(2026, 11, 1, 23, 59))).toBe("review-due:2026-12-01");
    expect(dailyKey("review-due", new Date(2026, 11, 2, 0, 1))).toBe("review-due:2026-12-02");
  });
  it("away only past the threshold, never for a device seen for the first time", () => {
    const now = new Date("2026-12-01T12:00:00Z");
    expect(awayLongEnough(null, now, 60_000)).toBe(false);
    expect(awayLongEnough(new Date("2026-12-01T11:59:30Z"), now, 60_000)).toBe(false);
    expect(awayLongEnough(new Date("2026-12-01T11:59:00Z"), now, 60_000)).toBe(true);
  });
});
