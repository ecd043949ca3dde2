import { describe, expect, it } from "vitest";
import { PairingLimits, PairingTokens } from "./pairing-tokens.ts";
import { hashSecret, isWellFormedSecret, newSecret, sameHash } from "./secrets.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("secrets", () => {
  it("are 256 random bits in base64url, hashed with SHA-256", () => {
    const a = newSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret()).not.toBe(a);
    expect(hashSecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(a)).not.toContain(a);
    expect(sameHash(hashSecret(a), hashSecret(a))).toBe(true);
    expect(sameHash(hashSecret(a), hashSecret("b"))).toBe(false);
    expect(sameHash("", "")).toBe(false);
  });

  it.each(["", "short", "a".repeat(129), "has space and more chars", "../../etc/passwd", "x'; DROP TABLE devices;--"])(
    "%j is not a well-formed secret",
    (value) => expect(isWellFormedSecret(value)).toBe(false),
  );
});

describe("PairingTokens", () => {
  it("accepts a fresh token once", () => {
    const tokens = new PairingTokens(600_000);
    const { token } = tokens.issue();
    expect(tokens.check(token)).toEqual({ ok: true });
    expect(tokens.redeem(token)).toEqual({ ok: true });
    expect(tokens.redeem(token)).toEqual({ ok: false, reason: "used" });
    expect(tokens.check(token)).toEqual({ ok: false, reason: "used" });
  });

  it("checking does not use a token up", () => {
    const tokens = new PairingTokens(600_000);
    const { token } = tokens.issue();
    tokens.check(token);
    tokens.check(token);
    expect(tokens.redeem(token)).toEqual({ ok: true });
  });

  it("expires after its time to live, to the millisecond", () => {
    const c = clock();
    const tokens = new PairingTokens(10 * 60_000, c.now);
    const { token, expiresAt } = tokens.issue();
    expect(expiresAt.getTime()).toBe(c.now() + 10 * 60_000);
    c.advance(10 * 60_000 - 1);
    expect(tokens.check(token)).toEqual({ ok: true });
    c.advance(1);
    expect(tokens.redeem(token)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses unknown, forged and malformed tokens", () => {
    const tokens = new PairingTokens(600_000);
    tokens.issue();
    expect(tokens.redeem(newSecret())).toEqual({ ok: false, reason: "unknown" });
    expect(tokens.redeem("")).toEqual({ ok: false, reason: "unknown" });
    expect(tokens.redeem("not a token")).toEqual({ ok: false, reason: "unknown" });
  });

  it("keeps only hashes, and at most MAX_OUTSTANDING tokens (the oldest goes first)", () => {
    const tokens = new PairingTokens(600_000);
    const first = tokens.issue().token;
    for (let i = 0; i < PairingLimits.MAX_OUTSTANDING; i++) tokens.issue();
    expect(tokens.outstanding).toBe(PairingLimits.MAX_OUTSTANDING);
    expect(tokens.redeem(first)).toEqual({ ok: false, reason: "unknown" });
    expect(JSON.stringify([...(tokens as unknown as { entries: Map<string, unknown> }).entries.keys()])).not.toContain(first);
  });

  it("says a token expired for a while, then forgets it", () => {
    const c = clock();
    const tokens = new PairingTokens(1_000, c.now);
    const { token } = tokens.issue();
    c.advance(1_000);
    expect(tokens.outstanding).toBe(0);
    tokens.issue();
    expect(tokens.check(token)).toEqual({ ok: false, reason: "expired" });
    c.advance(PairingLimits.REMEMBER_AFTER_EXPIRY_MS);
    tokens.issue();
    expect(tokens.check(token)).toEqual({ ok: false, reason: "unknown" });
  });
});
