// The notification pipeline: sources call `emit({ kind, sessionId, ... })` once per thing that
// happened; the notifier logs it once per key, asks the policy who gets what (policy.ts), and hands
// it to the channels: the pages over socket.io, the system notification through one page, Web Push,
// ntfy. Acting on a notice on one device withdraws it on the others. docs/notifications.md.
import { randomUUID } from "node:crypto";
import { Prisma } from "../db/generated/client.ts";
import type { NotificationDevice, NotificationLog } from "../db/generated/client.ts";
import type { Db } from "../db/client.ts";
import { NOTICE_KINDS, noticeLink, pageBody, remoteBody, type NoticePayload, type NotifyEvent } from "./kinds.ts";
import { awayLongEnough, dailyKey, planDeliveries, pushUrgency, withdrawTargets, type Delivery, type DeviceState } from "./policy.ts";
import type { NotifyDeviceStore } from "./device-store.ts";
import type { WebPushChannel } from "./web-push-channel.ts";
import { sendNtfy } from "./ntfy-channel.ts";
import type { PagePresence, ShowOptions } from "./presence.ts";
import type { Digest } from "./digest.ts";

/** How the notifier reaches an open page (server/realtime/notify-realtime.ts). */
export interface PageChannel {
  show(socketId: string, notice: NoticePayload, how: ShowOptions): void;
  withdraw(socketId: string, tag: string): void;
}

interface Page {
  readonly socketId: string;
  readonly clientId: string;
  presence: PagePresence;
}

export interface NotifierDeps {
  readonly db: Db;
  readonly store: NotifyDeviceStore;
  readonly push: WebPushChannel;
  readonly log: (line: string) => void;
  /** Away at least this long (ms) and a returning page gets the digest first. */
  readonly awayMs: number;
  /** The origin an ntfy link opens, from the origin the device's page claimed (click-origin.ts); none: no link. */
  readonly clickOrigin?: (claimed: string | null) => string | undefined;
  /** Hosts on this machine or the LAN the learner allowed notifications to go to (notifications.allowHosts). */
  readonly allowHosts?: () => readonly string[];
  /** What happened since a moment (sources.ts); null when there is nothing to tell. */
  readonly digestSince?: (since: Date) => Promise<Digest | null>;
  readonly now?: () => Date;
}

export interface Welcome {
  readonly digest: Digest | null;
}

export class Notifier {
  private readonly pages = new Map<string, Page>();
  private channel: PageChannel | undefined;
  private digestSince: ((since: Date) => Promise<Digest | null>) | undefined;
  private readonly now: () => Date;

  constructor(private readonly deps: NotifierDeps) {
    this.now = deps.now ?? (() => new Date());
    this.digestSince = deps.digestSince;
  }

  attachPages(channel: PageChannel | undefined): void {
    this.channel = channel;
  }

  setDigestSource(source: (since: Date) => Promise<Digest | null>): void {
    this.digestSince = source;
  }

  /** Each browser's delivery choices (the Devices page). */
  get devices(): NotifyDeviceStore {
    return this.deps.store;
  }

  get vapidPublicKey(): string {
    return this.deps.push.publicKey;
  }

  // ---- sending -------------------------------------------------------------------------------------

  /** One thing happened. Sent at most once per key; resolves to what was sent, or null if it was already. */
  async emit(event: NotifyEvent): Promise<NoticePayload | null> {
    const id = randomUUID();
    const key = event.key ?? `once:${id}`;
    const kind = NOTICE_KINDS[event.kind];
    const notice: NoticePayload = {
      id,
      kind: event.kind,
      urgency: kind.urgency,
      title: kind.title,
      body: pageBody(event.kind, event.text),
      link: noticeLink(event, id),
      tag: tagOf(event.key ?? `${event.kind}:${event.sessionId ?? id}`),
      at: this.now().toISOString(),
    };
    try {
      await this.deps.db.notificationLog.create({
        data: {
          id,
          key,
          kind: event.kind,
          sessionId: event.sessionId ?? null,
          title: notice.title,
          body: notice.body,
          link: notice.link,
          createdAt: new Date(notice.at),
        },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return null;
      throw error;
    }
    const rows = await this.deps.store.all();
    const plan = planDeliveries(
      kind.urgency,
      rows.map((row) => this.stateOf(row, event.sessionId)),
    );
    await this.deliver(notice, plan, rows);
    await this.deps.db.notificationLog.update({ where: { id }, data: { deliveries: JSON.stringify(plan) } });
    return notice;
  }

  /** "Send a test notification": to one device, through everything it has, even while looked at. */
  async test(deviceId: string): Promise<{ notice: NoticePayload; deliveries: Delivery[] } | null> {
    const rows = await this.deps.store.all();
    const id = randomUUID();
    const notice: NoticePayload = {
      id,
      kind: "test",
      urgency: NOTICE_KINDS.test.urgency,
      title: NOTICE_KINDS.test.title,
      body: remoteBody("test"),
      link: "/devices",
      tag: `test:${id}`,
      at: this.now().toISOString(),
    };
    const deliveries = planDeliveries(
      notice.urgency,
      rows.map((row) => this.stateOf(row, undefined)),
      { test: deviceId },
    );
    if (deliveries.length === 0) return null;
    await this.deliver(notice, deliveries, rows);
    return { notice, deliveries };
  }

  /** Review cards are due (the review loop calls this): at most once a calendar day. */
  reviewDue(count: number): Promise<NoticePayload | null> {
    const text = count === 1 ? "1 card is ready for review." : `${count} cards are ready for review.`;
    return this.emit({ kind: "review-due", key: dailyKey("review-due", this.now()), text, link: "/review" });
  }

  // ---- acting and withdrawing ------------------------------------------------------------------------

  /** The learner opened or dismissed a notice on one device: it is withdrawn on the others. */
  async act(noticeId: string, byClient: string | null): Promise<boolean> {
    const row = await this.deps.db.notificationLog.findUnique({ where: { id: noticeId } });
    if (!row) return false;
    return this.close(row, byClient);
  }

  /** The thing itself was settled (a permission answered, a nudge answered): withdraw everywhere. */
  async resolve(key: string): Promise<boolean> {
    const row = await this.deps.db.notificationLog.findUnique({ where: { key } });
    if (!row) return false;
    return this.close(row, null);
  }

  private async close(row: NotificationLog, byClient: string | null): Promise<boolean> {
    const won = await this.deps.db.notificationLog.updateMany({ where: { id: row.id, actedAt: null }, data: { actedAt: this.now() } });
    if (won.count !== 1) return false;
    const tag = tagOf(row.key.startsWith("once:") ? `${row.kind}:${row.sessionId ?? row.id}` : row.key);
    const targets = withdrawTargets(parseDeliveries(row.deliveries), byClient);
    const devices = new Map((await this.deps.store.all()).map((r) => [r.id, r]));
    for (const d of targets) {
      for (const page of this.pagesOf(d.device)) this.channel?.withdraw(page.socketId, tag);
      const device = devices.get(d.device);
      if (d.alert === "push" && device) await this.pushTo(device, { type: "withdraw", tag }, "low", tag);
    }
    return true;
  }

  // ---- pages ---------------------------------------------------------------------------------------

  /** A page connected (or reconnected). Returns the digest when its device comes back after a while. */
  async hello(
    socketId: string,
    hello: { clientId: string; deviceId: string | null; name: string; origin: string; presence: PagePresence },
  ): Promise<Welcome> {
    // The page counts from the moment it says hello, not once its row is stored.
    const wasLooking = this.isLooking(hello.clientId);
    this.pages.set(socketId, { socketId, clientId: hello.clientId, presence: hello.presence });
    const row = await this.deps.store
      .hello(hello.clientId, { deviceId: hello.deviceId, name: hello.name, origin: hello.origin })
      .catch((error: unknown) => {
        this.pages.delete(socketId);
        throw error;
      });
    return { digest: await this.arrived(row, wasLooking) };
  }

  /** A page's visibility or focus changed. */
  async presence(socketId: string, presence: PagePresence): Promise<Welcome> {
    const page = this.pages.get(socketId);
    if (!page) return { digest: null };
    const wasLooking = this.isLooking(page.clientId);
    page.presence = presence;
    const row = await this.deps.store.byId(page.clientId);
    if (!row) return { digest: null };
    return { digest: await this.arrived(row, wasLooking) };
  }

  leave(socketId: string): void {
    const page = this.pages.get(socketId);
    if (!page) return;
    const wasLooking = this.isLooking(page.clientId);
    this.pages.delete(socketId);
    if (wasLooking && !this.isLooking(page.clientId)) void this.seen(page.clientId);
  }

  /** The device starts or stops looking: its last-seen moment is written at both edges. */
  private async arrived(row: NotificationDevice, wasLooking: boolean): Promise<Digest | null> {
    const looking = this.isLooking(row.id);
    if (looking === wasLooking) return null;
    await this.seen(row.id);
    if (!looking || !awayLongEnough(row.lastSeenAt, this.now(), this.deps.awayMs) || !this.digestSince) return null;
    return this.digestSince(row.lastSeenAt!).catch((error: unknown) => {
      this.deps.log(`Could not gather what happened while away: ${String(error)}`);
      return null;
    });
  }

  private seen(clientId: string): Promise<void> {
    return this.deps.store
      .seen(clientId, this.now())
      .catch((error: unknown) => this.deps.log(`Could not record when a device was last seen: ${String(error)}`));
  }

  private pagesOf(clientId: string): Page[] {
    return [...this.pages.values()].filter((p) => p.clientId === clientId);
  }

  private isLooking(clientId: string): boolean {
    return this.pagesOf(clientId).some((p) => p.presence.visible && p.presence.focused);
  }

  private stateOf(row: NotificationDevice, sessionId: string | undefined): DeviceState {
    const pages = this.pagesOf(row.id);
    const looking = pages.filter((p) => p.presence.visible && p.presence.focused);
    return {
      id: row.id,
      pages: pages.length,
      looking: looking.length > 0,
      showsSession: looking.some((p) => showsSession(p.presence.path, sessionId)),
      system: row.system && pages.some((p) => p.presence.permission === "granted"),
      push: row.pushEndpoint !== null,
      ntfy: row.ntfyUrl !== null,
      sound: row.sound,
    };
  }

  // ---- channels ------------------------------------------------------------------------------------

  private async deliver(notice: NoticePayload, plan: readonly Delivery[], rows: readonly NotificationDevice[]): Promise<void> {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const remote = { ...notice, body: remoteBody(notice.kind) };
    await Promise.all(
      plan.map(async (d) => {
        const device = byId.get(d.device);
        if (!device) return;
        if (d.page) {
          const pages = this.pagesOf(d.device);
          // One page per device shows the system notification: the first with the permission.
          const alerting = d.alert === "system" ? pages.find((p) => p.presence.permission === "granted") : undefined;
          for (const page of pages) this.channel?.show(page.socketId, notice, { sound: d.sound, quiet: d.quiet, alert: page === alerting });
        }
        if (d.alert === "push") await this.pushTo(device, { type: "show", notice: remote }, pushUrgency(notice.urgency), notice.tag);
        if (d.alert === "ntfy" && device.ntfyUrl) {
          const origin = this.deps.clickOrigin?.(device.origin);
          const result = await sendNtfy(
            device.ntfyUrl,
            { title: notice.title, body: remote.body, urgency: notice.urgency, click: origin ? `${origin}${notice.link}` : undefined },
            this.deps.allowHosts?.() ?? [],
          );
          if (!result.ok) this.deps.log(`Could not send a notification to ${device.name} through ntfy: ${result.detail}.`);
        }
      }),
    );
  }

  private async pushTo(device: NotificationDevice, payload: unknown, urgency: "high" | "normal" | "low", topic: string): Promise<void> {
    if (!device.pushEndpoint || !device.pushP256dh || !device.pushAuth) return;
    const result = await this.deps.push.send(
      { endpoint: device.pushEndpoint, p256dh: device.pushP256dh, auth: device.pushAuth },
      payload,
      urgency,
      topic,
    );
    if (result.ok) return;
    this.deps.log(`Could not send a push notification to ${device.name}: ${result.detail}.`);
    if (result.gone) await this.deps.store.dropPush(device.id, device.pushEndpoint);
  }
}

function showsSession(path: string, sessionId: string | undefined): boolean {
  if (path === "/study" || path.startsWith("/study?")) return true;
  return sessionId !== undefined && path === `/sessions/${sessionId}`;
}

/** A tag fit for notification APIs and push topics: short, plain characters. */
function tagOf(text: string): string {
  return text.replace(/[^A-Za-z0-9:_-]/g, "").slice(0, 120);
}

function parseDeliveries(text: string | null): Delivery[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as Delivery[]) : [];
  } catch {
    return [];
  }
}
