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
import type { SessionView } from "../sessions/session-view.ts";

let tmp: string;
let db: Db;
let access: AccessControl;
let notifications: Notifications;
let push: PushEndpoint;
let events: SessionEvents;
let ntfy: Awaited<ReturnType<typeof startNtfyServer>>;
const pages: { socket: string; notice?: NoticePayload; how?: ShowOptions; withdraw?: string }[] = [];

const hidden = { visible: false, focused: false, path: "/study", permission: "granted" as const };
const looking = { ...hidden, visible: true, focused: true };

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-notify-"));
  // The test's push service and ntfy server run on this machine: the learner allows it.
  fs.writeFileSync(path.join(tmp, "studyloop.config.json"), JSON.stringify({ notifications: { allowHosts: ["127.0.0.1"] } }));
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
  events = new SessionEvents();
  notifications = createNotifications({
    db,
    sessions,
    events,
    access,
    dataDir: tmp,
    settings: loadSettings({ NODE_ENV: "test" }),
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
  it("an ntfy link opens the server's own origin, whatever origin a page claims in its hello", async () => {
    const n = notifications.notifier;
    const own = access.baseUrls(true).map((b) => b.baseUrl);
    await n.hello("s-evil", { clientId: PHONE, deviceId: null, name: "Phone", origin: "http://evil.example", presence: hidden });
    await n.devices.update(PHONE, { ntfyUrl: ntfy.url });
    await n.test(PHONE);
    await n.hello("s-own", { clientId: LAPTOP, deviceId: null, name: "Laptop", origin: own.at(-1)!, presence: hidden });
    await n.devices.update(LAPTOP, { ntfyUrl: ntfy.url });
    await n.test(LAPTOP);
    const clicks = ntfy.received.map((r) => String(r.headers.click));
    expect(clicks).toHaveLength(2);
    expect(clicks[0]).not.toContain("evil.example");
    expect(own.map((o) => `${o}/devices`)).toContain(clicks[0]);
    // A claim that is one of the server's own origins chooses among them.
    expect(clicks[1]).toBe(`${own.at(-1)}/devices`);
  });

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

  it("a page hidden while its hello is still being stored counts as hidden", async () => {
    await twoDevices();
    const n = notifications.notifier;
    // A second laptop page says hello looking, and is hidden before its row is written.
    const hello = n.hello("sock-laptop-2", {
      clientId: LAPTOP,
      deviceId: null,
      name: "Laptop",
      origin: "http://127.0.0.1:8567",
      presence: looking,
    });
    const hide = n.presence("sock-laptop-2", hidden);
    await Promise.all([hello, hide]);
    await n.emit({ kind: "break-due", sessionId: "s1", key: "break-due:s1:1" });
    expect(push.received).toHaveLength(1);
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

  it("break due and break over come from the focus timer's study events on the bus, once each", async () => {
    await twoDevices();
    events.study("break-due", "s1", { nudges: 1, n: 1, focusMinute: 25, breakMinutes: 5 });
    events.study("break-due", "s1", { nudges: 1, n: 1, focusMinute: 25, breakMinutes: 5 });
    events.study("break-over", "s1", { n: 1, breakMinutes: 5 });
    // Other study events are not notifications.
    events.study("parked", "s1", { id: "p1", text: "later" });
    events.study("paused", "s1", { action: "pause" });
    await expect.poll(() => db.notificationLog.count({ where: { deliveries: { not: null } } })).toBe(2);
    const rows = await db.notificationLog.findMany({ orderBy: { kind: "asc" } });
    expect(rows.map((r) => [r.kind, r.key, r.body])).toEqual([
      ["break-due", "break-due:s1:1", "You have focused for 25 minutes: take 5."],
      ["break-over", "break-over:s1:1", "Come back when you are ready and pick up where you left off."],
    ]);
    await expect.poll(() => push.received.length).toBe(2);
  });

  it("grace running out: one urgent notice per window the keeper announces, with when it ends", async () => {
    await twoDevices();
    const endsAt = new Date(Date.now() + 5 * 60_000);
    events.emit("grace-ending", "s1", endsAt);
    events.emit("grace-ending", "s1", endsAt);
    await expect.poll(() => db.notificationLog.count({ where: { deliveries: { not: null } } })).toBe(1);
    const row = await db.notificationLog.findFirstOrThrow();
    expect([row.kind, row.key, row.link]).toEqual(["grace-ending", `grace-ending:s1:${endsAt.getTime()}`, `/study#notice=${row.id}`]);
    expect(row.body).toMatch(/^Nobody is watching it: it ends at \d\d:\d\d \(in about 5 minutes\) unless you open it\.$/);
    await expect.poll(() => push.received.length).toBe(1);
    const pushed = push.decrypt(push.received[0]!) as { notice: NoticePayload };
    expect(pushed.notice).toMatchObject({
      kind: "grace-ending",
      urgency: "urgent",
      body: "Nobody is watching it: open StudyLoop to keep it going.",
    });
    // The learner came back: the warning is withdrawn on the devices it went to.
    events.emit("grace-kept", "s1");
    await expect.poll(async () => (await db.notificationLog.findFirstOrThrow()).actedAt).not.toBeNull();
    await expect.poll(() => push.received.length).toBe(2);
    expect(push.decrypt(push.received[1]!)).toEqual({ type: "withdraw", tag: `grace-ending:s1:${endsAt.getTime()}` });
    expect(pages.filter((p) => p.withdraw)).toEqual([{ socket: "sock-laptop", withdraw: `grace-ending:s1:${endsAt.getTime()}` }]);
    // They left again later: a new window, a new notice.
    events.emit("grace-ending", "s1", new Date(endsAt.getTime() + 60_000));
    await expect.poll(() => db.notificationLog.count({ where: { kind: "grace-ending" } })).toBe(2);
    // It ended anyway: the newer warning is withdrawn as the ended notice takes its place.
    events.sessionEnded("s1", { id: "s1", endReason: "grace-expired", explanation: "Nobody came back." } as unknown as SessionView);
    await expect.poll(() => db.notificationLog.count({ where: { kind: "grace-ending", actedAt: { not: null } } })).toBe(2);
    await expect.poll(() => db.notificationLog.count({ where: { kind: "session-ended" } })).toBe(1);
  });

  it("a session that ended without the learner (agent exited, server stopped) is urgent; the learner's End or shutdown is not", async () => {
    await twoDevices();
    const view = (id: string, endReason: string) => ({ id, endReason, explanation: `Ended: ${endReason}.` }) as unknown as SessionView;
    events.sessionEnded("s-exit", view("s-exit", "agent-exited"));
    events.sessionEnded("s-stopped", view("s-stopped", "server-stopped"));
    events.sessionEnded("s-grace", view("s-grace", "grace-expired"));
    events.sessionEnded("s-mine", view("s-mine", "ended-by-learner"));
    events.sessionEnded("s-shutdown", view("s-shutdown", "server-shutdown"));
    await expect.poll(() => db.notificationLog.count({ where: { deliveries: { not: null } } })).toBe(3);
    const rows = await db.notificationLog.findMany({ orderBy: { key: "asc" } });
    expect(rows.map((r) => [r.kind, r.key, r.link])).toEqual([
      ["session-ended", "ended:s-exit", `/sessions/s-exit#notice=${rows[0]!.id}`],
      ["session-ended", "ended:s-grace", `/sessions/s-grace#notice=${rows[1]!.id}`],
      ["session-ended", "ended:s-stopped", `/sessions/s-stopped#notice=${rows[2]!.id}`],
    ]);
    await expect.poll(() => push.received.length).toBe(3);
    expect(push.received.map((p) => (push.decrypt(p) as { notice: NoticePayload }).notice.urgency)).toEqual(["urgent", "urgent", "urgent"]);
    expect(push.received.every((p) => p.headers.urgency === "high")).toBe(true);
  });
});
