// AccessControl on a real SQLite file: pairing, the cookie it gives, revoking, and the limits.
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase, type Db } from "../db/client.ts";
import { AccessControl, type AccessOptions } from "./access-control.ts";
import { guessDeviceName } from "../../common/device-name.ts";
import { PairingRateLimit } from "./rate-limiter.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-access-"));
const dbs: Db[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((db) => db.$disconnect()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

function makeDb(): Db {
  const file = path.join(fs.mkdtempSync(path.join(tmp, "db-")), "studyloop.db");
  applyMigrations(file);
  const db = openDatabase(file);
  dbs.push(db);
  return db;
}

function access(db: Db, overrides: Partial<AccessOptions> = {}): AccessControl {
  return new AccessControl(db, {
    requirePairing: true,
    tls: false,
    bindHost: "0.0.0.0",
    port: 8567,
    allowOrigins: [],
    pairingTtlMs: 600_000,
    deviceIdleMs: 90 * 86_400_000,
    verifyAgentToken: async (token) => token === "agent-token",
    log: () => {},
    interfaces: () => ({
      lo: [{ address: "127.0.0.1", family: "IPv4", internal: true } as os.NetworkInterfaceInfo],
      wlan0: [
        { address: "192.168.1.20", family: "IPv4", internal: false } as os.NetworkInterfaceInfo,
        { address: "fe80::1", family: "IPv6", internal: false } as os.NetworkInterfaceInfo,
      ],
    }),
    ...overrides,
  });
}

function request(headers: Record<string, string> = {}, remoteAddress = "127.0.0.1"): IncomingMessage {
  return { method: "GET", headers: { host: "127.0.0.1:8567", ...headers }, socket: { remoteAddress } } as unknown as IncomingMessage;
}

const tokenOf = (pairUrl: string) => new URL(pairUrl).searchParams.get("token")!;

let db: Db;
beforeEach(() => {
  db = makeDb();
});

describe("AccessControl", () => {
  it("prints one link per address: this machine, then each LAN IPv4 address", () => {
    const links = access(db).pairingLinks({ includeLoopback: true });
    expect(links.map((l) => [l.label, l.baseUrl])).toEqual([
      ["this machine", "http://127.0.0.1:8567"],
      ["wlan0", "http://192.168.1.20:8567"],
    ]);
    expect(new Set(links.map((l) => tokenOf(l.pairUrl))).size).toBe(2);
  });

  it("pairs a device: a cookie whose secret is not stored, only its hash", async () => {
    const a = access(db);
    const [link] = a.pairingLinks({ includeLoopback: true });
    const outcome = await a.pair({ token: tokenOf(link!.pairUrl), name: "  My phone " }, "127.0.0.1", undefined);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.device.name).toBe("My phone");
    expect(outcome.setCookie).toMatch(/^studyloop_device_8567=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    const secret = /=([^;]+)/.exec(outcome.setCookie)![1]!;
    const rows = await db.device.findMany();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect((await a.deviceOf(request({ cookie: `studyloop_device_8567=${secret}` })))?.id).toBe(outcome.device.id);
    expect(await a.identify(request({ cookie: `studyloop_device_8567=${secret}` }))).toEqual({
      kind: "device",
      deviceId: outcome.device.id,
    });
  });

  it("a token works once", async () => {
    const a = access(db);
    const token = tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl);
    expect((await a.pair({ token }, "127.0.0.1", undefined)).ok).toBe(true);
    expect(await a.pair({ token }, "127.0.0.1", undefined)).toMatchObject({ ok: false, status: 410 });
    expect(await db.device.count()).toBe(1);
  });

  it("an expired token is refused", async () => {
    const a = access(db, { pairingTtlMs: 1 });
    const token = tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl);
    await new Promise((r) => setTimeout(r, 5));
    expect(await a.pair({ token }, "127.0.0.1", undefined)).toMatchObject({
      ok: false,
      status: 410,
      reason: expect.stringMatching(/expired/),
    });
    expect(await db.device.count()).toBe(0);
  });

  it("the expired-link message states the configured lifetime", async () => {
    const a = access(db, { pairingTtlMs: 2 * 3_600_000 });
    expect(a.pairingLifetime).toBe("2 hours");
    const b = access(db, { pairingTtlMs: 1 });
    const token = tokenOf(b.pairingLinks({ includeLoopback: true })[0]!.pairUrl);
    await new Promise((r) => setTimeout(r, 5));
    expect(b.checkToken(token, "127.0.0.1")).toMatchObject({ ok: false, reason: expect.stringContaining("links work for 1 second") });
  });

  it("a device unused for the idle time is no longer paired; one in use stays", async () => {
    const a = access(db, { deviceIdleMs: 7 * 86_400_000 });
    const paired = async () => {
      const outcome = await a.pair({ token: tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl) }, "127.0.0.1", undefined);
      if (!outcome.ok) throw new Error(outcome.reason);
      return { id: outcome.device.id, cookie: outcome.setCookie.split(";")[0]! };
    };
    const idle = await paired();
    const used = await paired();
    await db.device.update({ where: { id: idle.id }, data: { lastSeenAt: new Date(Date.now() - 8 * 86_400_000) } });
    await db.device.update({ where: { id: used.id }, data: { lastSeenAt: new Date(Date.now() - 6 * 86_400_000) } });
    expect(await a.identify(request({ cookie: idle.cookie }))).toBeUndefined();
    expect(await a.identify(request({ cookie: used.cookie }))).toEqual({ kind: "device", deviceId: used.id });
    const views = await a.list();
    expect(views.find((d) => d.id === idle.id)!.expired).toBe(true);
    expect(views.find((d) => d.id === used.id)!.expired).toBe(false);
    expect(Date.parse(views.find((d) => d.id === used.id)!.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it("revokes every device at once, or every other one", async () => {
    const a = access(db);
    const pairOne = async () => {
      const outcome = await a.pair({ token: tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl) }, "127.0.0.1", undefined);
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome.device.id;
    };
    const [one, two, three] = [await pairOne(), await pairOne(), await pairOne()];
    const revoked: string[] = [];
    a.on("revoked", (id) => revoked.push(id));
    expect(await a.revokeAll({ except: one })).toBe(2);
    expect(revoked.sort()).toEqual([two, three].sort());
    expect((await a.list()).filter((d) => d.revokedAt === null).map((d) => d.id)).toEqual([one]);
    expect(await a.revokeAll()).toBe(1);
    expect((await a.list()).every((d) => d.revokedAt !== null && d.expiresAt === null)).toBe(true);
  });

  it("refuses forged, revoked and malformed cookies", async () => {
    const a = access(db);
    const outcome = await a.pair(
      { token: tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl) },
      "127.0.0.1",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
    );
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.device.name).toBe("iPhone (Safari)");
    const secret = /=([^;]+)/.exec(outcome.setCookie)![1]!;
    for (const cookie of [
      "",
      "studyloop_device_8567=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "studyloop_device_8567=' OR 1=1 --",
      `studyloop_device_9999=${secret}`,
    ]) {
      expect(await a.identify(request({ cookie }))).toBeUndefined();
    }
    const revoked: string[] = [];
    a.on("revoked", (id) => revoked.push(id));
    expect((await a.revoke(outcome.device.id))?.revokedAt).not.toBeNull();
    expect(revoked).toEqual([outcome.device.id]);
    expect(await a.identify(request({ cookie: `studyloop_device_8567=${secret}` }))).toBeUndefined();
    expect(await a.revoke("00000000-0000-0000-0000-000000000000")).toBeUndefined();
  });

  it("lets a live session's agent in by its Bearer token, only where asked", async () => {
    const a = access(db);
    const agent = request({ authorization: "Bearer agent-token" });
    expect(await a.identify(agent, { allowAgent: true })).toEqual({ kind: "agent" });
    expect(await a.identify(agent)).toBeUndefined();
    expect(await a.identify(request({ authorization: "Bearer nope" }), { allowAgent: true })).toBeUndefined();
  });

  it("needs nothing while serving this machine only", async () => {
    const a = access(db, { requirePairing: false, bindHost: "127.0.0.1" });
    expect(await a.identify(request())).toEqual({ kind: "local" });
    expect(await a.freshPairing("127.0.0.1:8567")).toEqual({ required: false, links: [] });
  });

  it("rate-limits failed pairing attempts per address, valid tokens included once locked", async () => {
    const a = access(db);
    const token = tokenOf(a.pairingLinks({ includeLoopback: true })[0]!.pairUrl);
    for (let i = 0; i < PairingRateLimit.MAX_FAILURES; i++) {
      expect(await a.pair({ token: `forged-token-number-${i}` }, "10.0.0.9", undefined)).toMatchObject({ ok: false, status: 401 });
    }
    expect(await a.pair({ token }, "10.0.0.9", undefined)).toMatchObject({ ok: false, status: 429, retryAfterSeconds: expect.any(Number) });
    expect(a.checkToken(token, "10.0.0.9")).toMatchObject({ ok: false, status: 429 });
    // Another address is not affected, and the token was not used up by the refused attempt.
    expect((await a.pair({ token }, "10.0.0.10", undefined)).ok).toBe(true);
  });

  it("refuses a malformed pairing body as a failed attempt", async () => {
    const a = access(db);
    expect(await a.pair(undefined, "127.0.0.1", undefined)).toMatchObject({ ok: false, status: 400 });
    expect(await a.pair({ token: "x", name: "a\u0000b" }, "127.0.0.1", undefined)).toMatchObject({ ok: false, status: 400 });
    expect(await a.pair({ token: "x", name: "n".repeat(61) }, "127.0.0.1", undefined)).toMatchObject({ ok: false, status: 400 });
    expect(await db.device.count()).toBe(0);
  });

  it("fresh links for the dashboard carry QR codes, the asking address first", async () => {
    const pairing = await access(db).freshPairing("laptop.local:8567");
    expect(pairing.links.map((l) => l.baseUrl)).toEqual(["http://laptop.local:8567", "http://192.168.1.20:8567"]);
    expect(pairing.links[0]!.qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    expect(pairing.links[0]!.qrSvg).not.toMatch(/<script|on\w+=/i);
  });
});

describe("guessDeviceName", () => {
  it.each([
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      "Android phone (Chrome)",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Linux computer (Firefox)"],
    [undefined, "Device"],
  ])("%s -> %s", (ua, name) => expect(guessDeviceName(ua)).toBe(name));
});
