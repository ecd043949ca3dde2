import { describe, expect, it } from "vitest";
import { HSTS_VALUE, contentSecurityPolicy, newNonce, scriptNonce, strictTransportSecurity } from "./headers.ts";

// Next reads the nonce from the request's CSP with this very pattern (get-script-nonce-from-header.js).
const NEXT_NONCE = /^'nonce-([A-Za-z0-9+/_-]+={0,2})'$/;

describe("contentSecurityPolicy", () => {
  const csp = contentSecurityPolicy("abc123==", { dev: false, tls: false });
  const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `));

  it("allows no inline script: only the nonce and what nonce'd scripts load", () => {
    expect(directive("script-src")).toBe("script-src 'nonce-abc123==' 'strict-dynamic' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(directive("script-src")).not.toContain("unsafe-inline");
  });

  it("forbids framing, plugins and base-tag tricks", () => {
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("base-uri")).toBe("base-uri 'none'");
  });

  it("upgrades insecure requests only under TLS, allows eval only in development", () => {
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("n", { dev: false, tls: true })).toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy("n", { dev: true, tls: false })).toContain("'unsafe-eval'");
  });

  it("makes nonces Next can read, fresh each time", () => {
    const nonce = newNonce();
    expect(`'nonce-${nonce}'`).toMatch(NEXT_NONCE);
    expect(newNonce()).not.toBe(nonce);
  });

  it("gives a page the nonce of its request's policy for its own inline script, and none without one", () => {
    const nonce = newNonce();
    expect(scriptNonce(contentSecurityPolicy(nonce, { dev: false, tls: false }))).toBe(nonce);
    expect(scriptNonce("default-src 'self'")).toBeUndefined();
    expect(scriptNonce(null)).toBeUndefined();
  });

  it("draws 128 fresh random bits for every nonce, across refills of its pool", () => {
    const nonces = Array.from({ length: 1_000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("strictTransportSecurity", () => {
  it.each([
    [false, "192.168.1.20:8567", undefined],
    [true, "192.168.1.20:8567", HSTS_VALUE],
    [true, "study.example.org", HSTS_VALUE],
    [true, "127.0.0.1:8567", HSTS_VALUE],
    [true, "localhost:8567", undefined],
    [true, "LOCALHOST", undefined],
    [true, "app.localhost:1", undefined],
  ] as const)("tls %s, host %s -> %s", (tls, host, value) => {
    expect(strictTransportSecurity(tls, host)).toBe(value);
  });
});
