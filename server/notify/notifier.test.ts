// The notifier on a real migrated SQLite file: sends once per key, plans by presence, withdraws on
// the other devices when acted on, and device-bound settings go with a revoked or deleted device.
// The pages are a recording channel (socket.io is covered by e2e/notifications.spec.ts); push and
// ntfy are real HTTP servers on 127.0.0.1.
import { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, type Db } from "../db/client.ts";
import { AccessControl } from "../security/access-control.ts";
import type { SessionService } from "../sessions/session-service.ts";
import { SessionEvents } from "../sessions/session-events.ts";
import { loadSettings } from "../config/settings.ts";
import { startNtfyServer, startPushEndpoint, type PushEndpoint } from "../../e2e/support/push-endpoint.ts";
import { createNotifications, type Notifications } from "./notifications.ts";
import type { NoticePayload } from "./kinds.ts";
import type { ShowOptions } from "./presence.ts";

let tmp: string;
let db: Db;
let access: AccessControl;
let notifications: Notifications;
let push: PushEndpoint;
let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;
const pages: { socket: string; notice?: NoticePayload; how?: ShowOptions; withdraw?: string }[] = [];

const hidden = { visible: false, focused: false, path: "/study", permission: "granted" as const };
const looking = { ...hidden, visible: true, focused: true };

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-notify-"));
  const file = path.join(tmp, "studyloop.db");
  applyMigrations(file);
  db = openDatabase(file);
  access = new AccessControl(db, {
    requirePairing: true,
    tls: false,
    bindHost: "0.0.0.0",
    port: 8567,
    allowOrigins: [],
    pairingTtlMs: 600_000,
    verifyAgentToken: async () => false,
    log: () => {},
  });
  // The session service is not under test: an emitter with its id stands in (no session runs).
  const sessions = Object.assign(new EventEmitter(), {
    instanceId: "test-instance",
    state: async () => ({ session: null }),
  }) as unknown as SessionService;
  // A plan minute lasts 10 ms here: the timer source's break due / over come at once.
  notifications = createNotifications({
    db,
    sessions,
    events: new SessionEvents(),
    access,
    dataDir: tmp,
    settings: loadSettings({ NODE_ENV: "test", STUDYLOOP_TIMER_MINUTE_SECONDS: "0.01" }),
    log: () => {},
  });
  notifications.notifier.attachPages({
    show: (socket, notice, how) => pages.push({ socket, notice, how }),
    withdraw: (socket, tag) => pages.push({ socket, withdraw: tag }),
  });
  pages.length = 0;
  push = await startPushEndpoint();
  ntfy = await startNtfyServer();
});

afterEach(async () => {
  notifications.close();
  await push.close();
  await ntfy.close();
  await db.$disconnect();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const LAPTOP = "laptop-browser-id-0000001";
const PHONE = "phone-browser-id-00000001";

async function twoDevices() {
  const n = notifications.notifier;
  await n.hello("sock-laptop", { clientId: LAPTOP, deviceId: null, name: "Laptop", origin: "http://127.0.0.1:8567", presence: hidden });
  await n.devices.update(LAPTOP, { system: true });
  await n.devices.hello(PHONE, { deviceId: null, name: "Phone", origin: "http://192.168.1.20:8567" });
  await n.devices.update(PHONE, { push: push.subscription, ntfyUrl: ntfy.url });
}

describe("Notifier", () => {
  it("sends once per key: one card and system alert on the laptop, one push to the phone", async () => {
    await twoDevices();
    const n = notifications.notifier;
    const first = await n.emit({ kind: "permission", sessionId: "s1", key: "permission:s1:r1", text: "It asks: Run the example" });
    expect(await n.emit({ kind: "permission", sessionId: "s1", key: "permission:s1:r1" })).toBeNull();
    expect(first).toMatchObject({
      title: "The tutor asks for your permission",
      body: "It asks: Run the example",
      link: `/study#notice=${first!.id}`,
      urgency: "urgent",
    });
    expect(pages).toEqual([{ socket: "sock-laptop", notice: first, how: { sound: true, quiet: false, alert: true } }]);
    expect(push.received.map((p) => push.decrypt(p))).toEqual([
      { type: "show", notice: { ...first, body: "Open StudyLoop to allow or deny it." } },
    ]);
    expect(ntfy.received).toEqual([]);
    const row = await db.notificationLog.findUniqueOrThrow({ where: { key: "permission:s1:r1" } });
    expect(JSON.parse(row.deliveries!)).toEqual([
      { device: LAPTOP, page: true, quiet: false, sound: true, alert: "system" },
      { device: PHONE, page: false, quiet: false, sound: false, alert: "push" },
    ]);
  });

  it("sends nothing anywhere while the laptop's study page is looked at", async () => {
    await twoDevices();
    const n = notifications.notifier;
    await n.presence("sock-laptop", looking);
    await n.emit({ kind: "break-due", sessionId: "s1", key: "break-due:s1:1" });
    expect(pages).toEqual([]);
    expect(push.received).toEqual([]);
  });

  it("acting on the laptop withdraws the notice on the phone, once", async () => {
    await twoDevices();
    const n = notifications.notifier;
    const notice = (await n.emit({ kind: "waiting-input", sessionId: "s1", key: "waiting:s1:1" }))!;
    expect(await n.act(notice.id, LAPTOP)).toBe(true);
    expect(await n.act(notice.id, PHONE)).toBe(false);
    expect(pages.filter((p) => p.withdraw)).toEqual([]);
    expect(push.decrypt(push.received.at(-1)!)).toEqual({ type: "withdraw", tag: "waiting:s1:1" });
    // Settled at the source (a permission answered): withdrawn everywhere, the laptop's page too.
    const asked = (await n.emit({ kind: "permission", sessionId: "s1", key: "permission:s1:r2" }))!;
    expect(await n.resolve("permission:s1:r2")).toBe(true);
    expect(pages.filter((p) => p.withdraw)).toEqual([{ socket: "sock-laptop", withdraw: asked.tag }]);
  });

  it("review cards: at most once a day", async () => {
    await twoDevices();
    expect(await notifications.notifier.reviewDue(3)).toMatchObject({
      kind: "review-due",
      body: "3 cards are ready for review.",
      link: "/review",
    });
    expect(await notifications.notifier.reviewDue(4)).toBeNull();
  });

  it("a device's settings go with it: revoked (the row is kept) or deleted", async () => {
    const device = await db.device.create({ data: { id: "5b0c2a52-2f5e-4d0c-9d7e-0a4b7f1e9a11", name: "Phone", tokenHash: "h1" } });
    const other = await db.device.create({ data: { id: "6c0c2a52-2f5e-4d0c-9d7e-0a4b7f1e9a12", name: "Tablet", tokenHash: "h2" } });
    const n = notifications.notifier;
    await n.hello("s-phone", { clientId: PHONE, deviceId: device.id, name: "Phone", origin: "http://192.168.1.20:8567", presence: hidden });
    await n.hello("s-tablet", {
      clientId: LAPTOP,
      deviceId: other.id,
      name: "Tablet",
      origin: "http://192.168.1.20:8567",
      presence: hidden,
    });
    await n.devices.update(PHONE, { push: push.subscription });
    await access.revoke(device.id);
    await expect.poll(() => db.notificationDevice.count({ where: { id: PHONE } })).toBe(0);
    await db.device.delete({ where: { id: other.id } });
    expect(await db.notificationDevice.count()).toBe(0);
  });

  it("break due and break over come from the timer of this server's live sessions, once each", async () => {
    await twoDevices();
    const now = Date.now();
    const nudge = { n: 1, focusMinute: 25, long: false, breakMinutes: 5, shownAt: new Date(now).toISOString() };
    const row = {
      energy: 5,
      agent: "tutor",
      transport: "pty",
      status: "live",
      ownerInstance: "test-instance",
      startedAt: new Date(now - 1_000),
    };
    await db.studySession.create({
      data: { ...row, id: "s-due", topic: "a", nudgesShown: JSON.stringify([{ ...nudge, answeredAt: null, answer: null }]) },
    });
    await db.studySession.create({
      data: {
        ...row,
        id: "s-over",
        topic: "b",
        pausedAt: new Date(now - 500),
        nudgesShown: JSON.stringify([{ ...nudge, answeredAt: new Date(now - 500).toISOString(), answer: "break" }]),
      },
    });
    // Another server's session is not ours to announce.
    await db.studySession.create({
      data: {
        ...row,
        id: "s-other",
        topic: "c",
        ownerInstance: "elsewhere",
        nudgesShown: JSON.stringify([{ ...nudge, answeredAt: null, answer: null }]),
      },
    });
    await expect.poll(() => db.notificationLog.count({ where: { deliveries: { not: null } } }), { timeout: 10_000 }).toBe(2);
    const rows = await db.notificationLog.findMany({ orderBy: { kind: "asc" } });
    expect(rows.map((r) => [r.kind, r.key])).toEqual([
      ["break-due", "break-due:s-due:1"],
      ["break-over", "break-over:s-over:1"],
    ]);
    // Later ticks find the same nudges: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await db.notificationLog.count()).toBe(2);
    expect(push.received).toHaveLength(2);
  });
});
