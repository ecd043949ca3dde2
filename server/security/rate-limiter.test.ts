import { describe, expect, it } from "vitest";
import { FailureLimiter, PairingRateLimit, addressKey } from "./rate-limiter.ts";

function limiter(max = 3, windowMs = 60_000, maxKeys = 100) {
  let now = 0;
  const l = new FailureLimiter({ maxFailures: max, windowMs, maxKeys }, () => now);
  return { l, advance: (ms: number) => (now += ms) };
}

describe("FailureLimiter", () => {
  it("allows up to the limit of failures, then refuses until the oldest leaves the window", () => {
    const { l, advance } = limiter(3, 60_000);
    l.fail("a");
    advance(10_000);
    l.fail("a");
    expect(l.retryAfterMs("a")).toBe(0);
    advance(10_000);
    l.fail("a");
    expect(l.retryAfterMs("a")).toBe(40_000);
    advance(39_999);
    expect(l.retryAfterMs("a")).toBe(1);
    advance(1);
    expect(l.retryAfterMs("a")).toBe(0);
    // One more failure locks it again until the next oldest leaves.
    l.fail("a");
    expect(l.retryAfterMs("a")).toBe(10_000);
  });

  it("counts each address apart", () => {
    const { l } = limiter(2);
    l.fail("a");
    l.fail("a");
    expect(l.retryAfterMs("a")).toBeGreaterThan(0);
    expect(l.retryAfterMs("b")).toBe(0);
  });

  it("a flood keeps memory bounded: per address and in addresses", () => {
    const { l } = limiter(3, 60_000, 50);
    for (let i = 0; i < 10_000; i++) l.fail("a");
    expect((l as unknown as { failures: Map<string, number[]> }).failures.get("a")).toHaveLength(3);
    for (let i = 0; i < 500; i++) l.fail(`10.0.0.${i}`);
    expect((l as unknown as { failures: Map<string, number[]> }).failures.size).toBe(50);
  });

  it("defaults to ten failures per fifteen minutes", () => {
    expect(PairingRateLimit.MAX_FAILURES).toBe(10);
    expect(PairingRateLimit.WINDOW_MS).toBe(15 * 60_000);
  });
});

describe("addressKey", () => {
  it("treats an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(addressKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(addressKey("::1")).toBe("::1");
    expect(addressKey(undefined)).toBe("unknown");
  });
});
