// Web Push (RFC 8030 + RFC 8291 encryption + RFC 8292 VAPID) through the `web-push` library: it
// encrypts and signs; the request itself is sent here through outbound.ts (only to addresses the
// learner meant, no redirects), so a push endpoint the learner allowed on this machine or the LAN can be
// plain http (tests, a self-hosted push relay). The VAPID key pair is made on first start and
// kept in the data directory, readable by the learner only (0600).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type WebPush from "web-push";
import { z } from "zod";
import { sendOutbound } from "./outbound.ts";

/** The library, loaded on first use (making keys, sending): memory an idle server without push devices need not hold. */
const webpush = (): typeof WebPush => createRequire(import.meta.url)("web-push") as typeof WebPush;

export const VAPID_FILE_NAME = "vapid.json";
/** Required by VAPID (RFC 8292 §2.1): a contact for the push service; nobody is mailed. */
const VAPID_SUBJECT = "mailto:studyloop@localhost.invalid";
/** How long a push service keeps an undelivered message, in seconds: a nudge older than this is stale. */
const PUSH_TTL_SECONDS = 15 * 60;
/** A push service that does not answer within this is given up on (ms). */
const PUSH_TIMEOUT_MS = 10_000;

const VapidFileSchema = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });
export type VapidKeys = z.infer<typeof VapidFileSchema>;

/** Reads the key pair, or makes and stores one (0600) on first start. */
export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, VAPID_FILE_NAME);
  try {
    const keys = VapidFileSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new Error(
        `${file} is not readable or not valid: remove it and restart StudyLoop to make new keys (devices then subscribe again).`,
        { cause: error },
      );
  }
  const keys = webpush().generateVAPIDKeys();
  // wx: two servers starting at once cannot both write; the loser reads the winner's keys.
  try {
    fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadVapidKeys(dataDir);
    throw error;
  }
  return keys;
}

export interface PushTarget {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

export type PushResult = { ok: true } | { ok: false; gone: boolean; detail: string };

export class WebPushChannel {
  constructor(
    private readonly keys: VapidKeys,
    /** Hosts on this machine or the LAN the learner allowed (notifications.allowHosts). */
    private readonly allowHosts: () => readonly string[] = () => [],
  ) {}

  get publicKey(): string {
    return this.keys.publicKey;
  }

  async send(target: PushTarget, payload: unknown, urgency: "high" | "normal" | "low", topic?: string): Promise<PushResult> {
    const details = webpush().generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: VAPID_SUBJECT, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        urgency,
        contentEncoding: "aes128gcm",
        // A newer message with the same topic replaces an undelivered one (RFC 8030 §5.4).
        ...(topic ? { topic: topic.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) } : {}),
      },
    );
    const result = await sendOutbound({
      url: details.endpoint,
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : null,
      timeoutMs: PUSH_TIMEOUT_MS,
      allowHosts: this.allowHosts(),
    });
    if (result.ok) return { ok: true };
    return {
      ok: false,
      gone: result.status === 404 || result.status === 410,
      detail: result.detail.replace(/^the server/, "the push service"),
    };
  }
}
