// The notification devices table: each browser's delivery choices and Web Push subscription.
// Rows are bound to the paired Device when there is one and go with it (revoke or delete).
import type { Db } from "../db/client.ts";
import type { NotificationDevice } from "../db/generated/client.ts";
import { z } from "zod";

/** A browser's own id for itself: 22+ url-safe characters from its random generator. */
export const CLIENT_ID = /^[A-Za-z0-9_-]{22,64}$/;

const loopbackHost = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);

export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(2000)
    .url("The push subscription's endpoint is not a URL.")
    .refine((u) => {
      const url = new URL(u);
      // Push services are HTTPS; plain http only to this machine (a local push endpoint).
      return url.protocol === "https:" || (url.protocol === "http:" && loopbackHost(url.hostname));
    }, "The push subscription's endpoint must be an https:// address."),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, "The push subscription's p256dh key is not valid."),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,30}={0,2}$/, "The push subscription's auth secret is not valid."),
  }),
});

export const NotifySettingsSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Give the device a name.")
      .max(60, "The name can be at most 60 characters.")
      .regex(/^[^\p{Cc}]*$/u, "The name must not contain control characters."),
    system: z.boolean(),
    sound: z.boolean(),
    push: PushSubscriptionSchema.nullable(),
    ntfyUrl: z
      .string()
      .trim()
      .max(500, "The ntfy address can be at most 500 characters.")
      .url("The ntfy address must be a full URL, like https://ntfy.sh/my-secret-topic.")
      .refine((u) => /^https?:$/.test(new URL(u).protocol), "The ntfy address must start with https:// or http://.")
      .nullable(),
  })
  .partial()
  .strict();

export type NotifySettings = z.infer<typeof NotifySettingsSchema>;

/** What the Devices page shows: the choices, never the push keys. */
export interface NotifyDeviceView {
  readonly id: string;
  readonly name: string;
  readonly pairedDeviceId: string | null;
  readonly system: boolean;
  readonly sound: boolean;
  readonly push: boolean;
  readonly ntfyUrl: string | null;
  readonly lastSeenAt: string | null;
}

export function notifyDeviceView(row: NotificationDevice): NotifyDeviceView {
  return {
    id: row.id,
    name: row.name,
    pairedDeviceId: row.deviceId,
    system: row.system,
    sound: row.sound,
    push: row.pushEndpoint !== null,
    ntfyUrl: row.ntfyUrl,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

export class NotifyDeviceStore {
  constructor(private readonly db: Db) {}

  all(): Promise<NotificationDevice[]> {
    return this.db.notificationDevice.findMany({ orderBy: { createdAt: "asc" } });
  }

  byId(id: string): Promise<NotificationDevice | null> {
    return this.db.notificationDevice.findUnique({ where: { id } });
  }

  /** A page said hello: the row is created on first sight, and (re)bound to the paired device asking. */
  async hello(id: string, fields: { deviceId: string | null; name: string; origin: string | null }): Promise<NotificationDevice> {
    return this.db.notificationDevice.upsert({
      where: { id },
      create: { id, deviceId: fields.deviceId, name: fields.name, origin: fields.origin },
      update: { deviceId: fields.deviceId, ...(fields.origin ? { origin: fields.origin } : {}) },
    });
  }

  async update(id: string, settings: NotifySettings): Promise<NotificationDevice | null> {
    const { push, ...rest } = settings;
    const data = {
      ...rest,
      ...(push === undefined
        ? {}
        : push === null
          ? { pushEndpoint: null, pushP256dh: null, pushAuth: null }
          : { pushEndpoint: push.endpoint, pushP256dh: push.keys.p256dh, pushAuth: push.keys.auth }),
    };
    const result = await this.db.notificationDevice.updateMany({ where: { id }, data });
    return result.count === 1 ? this.byId(id) : null;
  }

  async seen(id: string, at: Date): Promise<void> {
    await this.db.notificationDevice.updateMany({ where: { id }, data: { lastSeenAt: at } });
  }

  /** The push service said the subscription is gone (404/410): forget it. */
  async dropPush(id: string, endpoint: string): Promise<void> {
    await this.db.notificationDevice.updateMany({
      where: { id, pushEndpoint: endpoint },
      data: { pushEndpoint: null, pushP256dh: null, pushAuth: null },
    });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.notificationDevice.deleteMany({ where: { id } })).count === 1;
  }

  /** A revoked paired device keeps its row (the devices page shows it); its subscriptions go. */
  async removeForDevice(deviceId: string): Promise<number> {
    return (await this.db.notificationDevice.deleteMany({ where: { deviceId } })).count;
  }
}
