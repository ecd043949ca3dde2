// Who may use this server: the one place that decides. Served to loopback only (the default) every
// local client is the learner; bound beyond loopback (--lan, or --host with a LAN address) every
// request and socket handshake, from any address, loopback included, needs a paired device.
// Pairing exchanges a one-time token for a device cookie; the devices table keeps only its hash.
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import { z } from "zod";
import { plainText } from "./plain-text-schema.ts";
import { guessDeviceName } from "../../common/device-name.ts";
import type { Db } from "../db/client.ts";
import type { Device } from "../db/generated/client.ts";
import { DEVICE_COOKIE_MAX_AGE_SECONDS, deviceCookieName, parseCookies, serializeCookie } from "./cookies.ts";
import {
  checkHost,
  checkOrigin,
  hostName,
  isLoopbackBind,
  isLoopbackName,
  servedOrigin,
  type OriginPolicy,
  type OriginVerdict,
} from "./origin.ts";
import { PairingTokens } from "./pairing-tokens.ts";
import { FailureLimiter, addressKey } from "./rate-limiter.ts";
import { hashSecret, isWellFormedSecret, newSecret } from "./secrets.ts";

/** A device's lastSeenAt is written at most this often (ms), not on every request. */
const LAST_SEEN_WRITE_EVERY_MS = 60_000;

export interface AccessOptions {
  /** Every request needs a paired device (bound beyond loopback, or --lan). */
  readonly requirePairing: boolean;
  readonly tls: boolean;
  /** The address the server is bound to. */
  readonly bindHost: string;
  readonly port: number;
  /** Normalised origins trusted beside the served one (--allow-origin). */
  readonly allowOrigins: readonly string[];
  /** How long a pairing link works, in ms. */
  readonly pairingTtlMs: number;
  /** A device unused this long (ms since it was last seen) is no longer paired; 90 days by default. */
  readonly deviceIdleMs?: number;
  /** Whether a Bearer token is a live session's agent token (the agent's `studyloop park`). */
  readonly verifyAgentToken: (token: string) => Promise<boolean>;
  readonly log: (line: string) => void;
  /** The machine's network interfaces (injectable for tests). */
  readonly interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
}

export type Identity =
  | { readonly kind: "local" } // served to loopback only: no pairing
  | { readonly kind: "device"; readonly deviceId: string }
  | { readonly kind: "agent" }; // a live session's agent, by its Bearer token

export interface DeviceView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly lastSeenAt: string | null;
  readonly revokedAt: string | null;
  /** When its pairing lapses if it stays unused (null once revoked). */
  readonly expiresAt: string | null;
  /** Unused for longer than the idle time: no longer paired. */
  readonly expired: boolean;
}

export interface PairingLink {
  /** Where the device will open StudyLoop, e.g. http://192.168.1.20:8567 */
  readonly baseUrl: string;
  /** Which interface the address belongs to ("this machine" for loopback). */
  readonly label: string;
  readonly pairUrl: string;
  readonly expiresAt: string;
}

export type PairOutcome =
  | { ok: true; device: DeviceView; setCookie: string }
  | { ok: false; status: 400 | 401 | 410 | 429; reason: string; retryAfterSeconds?: number };

export const DEVICE_NAME_MAX_CHARS = 60;

/** How long an unused device stays paired unless configured (STUDYLOOP_DEVICE_IDLE_SECONDS): 90 days. */
export const DEVICE_IDLE_DEFAULT_MS = 90 * 24 * 60 * 60 * 1000;

export const PairRequestSchema = z.object({
  token: z.string({ error: "token is required" }).min(1, "token is required").max(200, "token is not valid"),
  // Control characters would garble the devices page and the server's log.
  name: plainText("name", "line").max(DEVICE_NAME_MAX_CHARS, `name must be at most ${DEVICE_NAME_MAX_CHARS} characters`).optional(),
});

export class AccessControl extends EventEmitter<{ revoked: [deviceId: string] }> {
  readonly requirePairing: boolean;
  readonly tls: boolean;
  readonly cookieName: string;
  readonly policy: OriginPolicy;
  private readonly tokens: PairingTokens;
  private readonly limiter = new FailureLimiter();
  private readonly lastSeenWritten = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly options: AccessOptions,
  ) {
    super();
    this.requirePairing = options.requirePairing;
    this.tls = options.tls;
    this.cookieName = deviceCookieName(options.port);
    this.policy = { allowOrigins: options.allowOrigins, loopbackOnly: !options.requirePairing && isLoopbackBind(options.bindHost) };
    this.tokens = new PairingTokens(options.pairingTtlMs);
  }

  // ---- requests ------------------------------------------------------------------------------------

  /** Host and Origin checks for one HTTP request or socket handshake. */
  checkRequest(req: IncomingMessage, handshake = false): OriginVerdict {
    const host = checkHost({ host: req.headers.host }, this.policy);
    if (!host.ok) return host;
    return checkOrigin(
      {
        method: req.method ?? "GET",
        host: req.headers.host,
        origin: header(req, "origin"),
        fetchSite: header(req, "sec-fetch-site"),
        fetchMode: header(req, "sec-fetch-mode"),
        secure: this.tls,
      },
      this.policy,
      handshake,
    );
  }

  /** Who is asking; undefined when pairing is required and the request shows no paired device. */
  async identify(req: IncomingMessage, opts: { allowAgent: boolean } = { allowAgent: false }): Promise<Identity | undefined> {
    if (!this.requirePairing) return { kind: "local" };
    const device = await this.deviceOf(req);
    if (device) return { kind: "device", deviceId: device.id };
    if (opts.allowAgent) {
      const match = /^Bearer\s+(\S+)$/i.exec(header(req, "authorization") ?? "");
      if (match && (await this.options.verifyAgentToken(match[1]!).catch(() => false))) return { kind: "agent" };
    }
    return undefined;
  }

  /** The live (not revoked) device whose cookie this request carries. */
  async deviceOf(req: IncomingMessage): Promise<Device | undefined> {
    const secret = parseCookies(header(req, "cookie")).get(this.cookieName);
    if (!secret || !isWellFormedSecret(secret)) return undefined;
    const device = await this.db.device.findUnique({ where: { tokenHash: hashSecret(secret) } });
    if (!device || device.revokedAt) return undefined;
    // Idle too long: a lost or forgotten device stops working on its own.
    if (this.view(device).expired) return undefined;
    this.touch(device.id);
    return device;
  }

  // ---- pairing -------------------------------------------------------------------------------------

  /** The refusal for an address that has failed too often, or undefined if it may try now. */
  pairingLimit(remoteAddress: string | undefined): Extract<PairOutcome, { ok: false }> | undefined {
    const wait = this.limiter.retryAfterMs(addressKey(remoteAddress));
    if (wait === 0) return undefined;
    const minutes = Math.ceil(wait / 60_000);
    return {
      ok: false,
      status: 429,
      reason: `Too many failed pairing attempts from this address: try again in ${minutes} minute${minutes === 1 ? "" : "s"} with a fresh link.`,
      retryAfterSeconds: Math.ceil(wait / 1000),
    };
  }

  /** Checks a token without using it (the pairing page). Failures count toward the address's limit. */
  checkToken(token: string, remoteAddress: string | undefined): PairOutcome | { ok: true } {
    const limited = this.pairingLimit(remoteAddress);
    if (limited) return limited;
    const verdict = this.tokens.check(token);
    if (verdict.ok) return verdict;
    this.limiter.fail(addressKey(remoteAddress));
    return tokenRefusal(verdict.reason, this.pairingLifetime);
  }

  /** Exchanges a token for a new device and its cookie. */
  async pair(input: unknown, remoteAddress: string | undefined, userAgent: string | undefined): Promise<PairOutcome> {
    const limited = this.pairingLimit(remoteAddress);
    if (limited) return limited;
    const parsed = PairRequestSchema.safeParse(input);
    if (!parsed.success) {
      this.limiter.fail(addressKey(remoteAddress));
      const message = parsed.error.issues[0]?.message ?? "The pairing request is not valid.";
      return { ok: false, status: 400, reason: `${message.charAt(0).toUpperCase()}${message.slice(1)}.` };
    }
    const verdict = this.tokens.redeem(parsed.data.token);
    if (!verdict.ok) {
      this.limiter.fail(addressKey(remoteAddress));
      this.options.log(`Refused a pairing attempt from ${addressKey(remoteAddress)}: the token was ${verdict.reason}.`);
      return tokenRefusal(verdict.reason, this.pairingLifetime);
    }
    const secret = newSecret();
    const name = parsed.data.name || guessDeviceName(userAgent);
    const device = await this.db.device.create({
      data: { id: randomUUID(), name, tokenHash: hashSecret(secret), lastSeenAt: new Date() },
    });
    this.options.log(`Paired a new device "${name}" from ${addressKey(remoteAddress)}.`);
    return {
      ok: true,
      device: this.view(device),
      setCookie: serializeCookie(this.cookieName, secret, { maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS, secure: this.tls }),
    };
  }

  /** One fresh pairing link per address a device can reach this server at. */
  pairingLinks(opts: { includeLoopback: boolean; extraOrigin?: string }): PairingLink[] {
    const bases = this.baseUrls(opts.includeLoopback);
    if (opts.extraOrigin && !bases.some((b) => b.baseUrl === opts.extraOrigin))
      bases.unshift({ baseUrl: opts.extraOrigin, label: "this address" });
    return bases.map(({ baseUrl, label }) => {
      const { token, expiresAt } = this.tokens.issue();
      return { baseUrl, label, pairUrl: `${baseUrl}/pair?token=${token}`, expiresAt: expiresAt.toISOString() };
    });
  }

  /**
   * Fresh links for the dashboard's "Pair a device", each with its QR code: the address this request
   * came on, then every LAN address; asked from this machine, a loopback link for another browser on
   * it comes first (label "this machine"). None while serving this machine only.
   */
  async freshPairing(requestHost: string | undefined): Promise<{ required: boolean; links: (PairingLink & { qrSvg: string })[] }> {
    if (!this.requirePairing) return { required: false, links: [] };
    const name = hostName(requestHost);
    const local = name !== undefined && isLoopbackName(name);
    const extraOrigin = name && !local ? servedOrigin(requestHost, this.tls) : undefined;
    const links = this.pairingLinks({ includeLoopback: local, ...(extraOrigin ? { extraOrigin } : {}) });
    return { required: true, links: await Promise.all(links.map(async (link) => ({ ...link, qrSvg: await qrSvg(link.pairUrl) }))) };
  }

  /** The addresses a device can reach this server at: loopback first, then each LAN address. */
  baseUrls(includeLoopback: boolean): { baseUrl: string; label: string }[] {
    const scheme = this.tls ? "https" : "http";
    const url = (address: string) => `${scheme}://${address.includes(":") ? `[${address}]` : address}:${this.options.port}`;
    const bind = this.options.bindHost;
    const wildcard = bind === "0.0.0.0" || bind === "::";
    const out: { baseUrl: string; label: string }[] = [];
    if (includeLoopback && (wildcard || isLoopbackBind(bind)))
      out.push({ baseUrl: url(wildcard ? "127.0.0.1" : bind), label: "this machine" });
    if (!wildcard) {
      if (!isLoopbackBind(bind)) out.push({ baseUrl: url(bind), label: "LAN" });
      return out;
    }
    const interfaces = (this.options.interfaces ?? os.networkInterfaces)();
    for (const [name, infos] of Object.entries(interfaces)) {
      for (const info of infos ?? []) {
        if (info.internal || info.family !== "IPv4") continue;
        out.push({ baseUrl: url(info.address), label: name });
      }
    }
    return out;
  }

  // ---- devices -------------------------------------------------------------------------------------

  async list(): Promise<DeviceView[]> {
    const rows = await this.db.device.findMany({ orderBy: [{ revokedAt: { sort: "asc", nulls: "first" } }, { createdAt: "desc" }] });
    return rows.map((row) => this.view(row));
  }

  /** How long a pairing link works, in words ("10 minutes"), for the messages that mention it. */
  get pairingLifetime(): string {
    return describeDuration(this.options.pairingTtlMs);
  }

  /**
   * Revokes every device at once (but the asking one, with `except`): a lost phone, or a clean slate.
   * Their cookies stop working now and their sockets close.
   */
  async revokeAll(opts: { except?: string | undefined } = {}): Promise<number> {
    const rows = await this.db.device.findMany({
      where: { revokedAt: null, ...(opts.except ? { id: { not: opts.except } } : {}) },
      select: { id: true },
    });
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    await this.db.device.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: new Date() } });
    this.options.log(`Revoked ${ids.length} device${ids.length === 1 ? "" : "s"} at once.`);
    for (const id of ids) {
      this.lastSeenWritten.delete(id);
      this.emit("revoked", id);
    }
    return ids.length;
  }

  view(device: Device): DeviceView {
    const lastUse = (device.lastSeenAt ?? device.createdAt).getTime();
    return deviceView(device, device.revokedAt ? null : new Date(lastUse + (this.options.deviceIdleMs ?? DEVICE_IDLE_DEFAULT_MS)));
  }

  /** Revokes a device: its cookie stops working now and its open sockets are closed (the `revoked` event). */
  async revoke(id: string): Promise<DeviceView | undefined> {
    const device = await this.db.device.findUnique({ where: { id } });
    if (!device) return undefined;
    const row = device.revokedAt ? device : await this.db.device.update({ where: { id }, data: { revokedAt: new Date() } });
    this.lastSeenWritten.delete(id);
    this.options.log(`Revoked device "${row.name}".`);
    this.emit("revoked", id);
    return this.view(row);
  }

  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastSeenWritten.get(id) ?? 0) < LAST_SEEN_WRITE_EVERY_MS) return;
    this.lastSeenWritten.set(id, now);
    this.db.device
      .updateMany({ where: { id, revokedAt: null }, data: { lastSeenAt: new Date(now) } })
      .catch((error: unknown) => this.options.log(`Could not record when device ${id} was last seen: ${String(error)}`));
  }
}

function tokenRefusal(reason: "unknown" | "expired" | "used", lifetime: string): PairOutcome {
  switch (reason) {
    case "expired":
      return { ok: false, status: 410, reason: `This pairing link has expired (links work for ${lifetime}): ask for a fresh one.` };
    case "used":
      return { ok: false, status: 410, reason: "This pairing link has already been used (each works once): ask for a fresh one." };
    default:
      return { ok: false, status: 401, reason: "This pairing link is not valid: ask for a fresh one." };
  }
}

export function deviceView(device: Device, expiresAt: Date | null, now: number = Date.now()): DeviceView {
  return {
    id: device.id,
    name: device.name,
    createdAt: device.createdAt.toISOString(),
    lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
    revokedAt: device.revokedAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
    expired: expiresAt !== null && expiresAt.getTime() <= now,
  };
}

/** A duration in the largest whole unit that fits: "10 minutes", "1 hour", "90 days", "45 seconds". */
export function describeDuration(ms: number): string {
  const units: [string, number][] = [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
    ["second", 1000],
  ];
  for (const [name, size] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}

/** The QR code library, loaded when a code is first drawn: pairing is rare, the server's memory constant. */
const qrcode = async () => (await import("qrcode")).default;

/** A QR code of a link, as an SVG document (the dashboard shows it as an image). */
export async function qrSvg(text: string): Promise<string> {
  return (await qrcode()).toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** A QR code of a link for a terminal, two rows of modules per line. */
export async function qrTerminal(text: string): Promise<string> {
  return (await qrcode()).toString(text, { type: "terminal", small: true, errorCorrectionLevel: "L" });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
