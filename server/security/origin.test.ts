import { describe, expect, it } from "vitest";
import { checkHost, checkOrigin, isLoopbackBind, normaliseOrigin, parseAllowOrigins, type RequestFacts } from "./origin.ts";

const base: RequestFacts = {
  method: "POST",
  host: "192.168.1.20:8567",
  origin: "http://192.168.1.20:8567",
  fetchSite: "same-origin",
  fetchMode: "cors",
  secure: false,
};
const lan = { allowOrigins: [], loopbackOnly: false };
const local = { allowOrigins: [], loopbackOnly: true };

describe("normaliseOrigin", () => {
  it.each([
    ["http://Example.ORG", "http://example.org"],
    ["https://example.org:443", "https://example.org"],
    ["http://127.0.0.1:8567", "http://127.0.0.1:8567"],
    ["http://[::1]:80", "http://[::1]"],
  ])("%s -> %s", (input, output) => expect(normaliseOrigin(input)).toBe(output));

  it.each(["null", "", "file://x", "http://a.b/path", "http://user:pw@a.b", "javascript:alert(1)", "http://a b"])(
    "%j is not an origin",
    (input) => {
      expect(normaliseOrigin(input)).toBeUndefined();
    },
  );
});

describe("checkOrigin", () => {
  const cases: [string, Partial<RequestFacts>, boolean][] = [
    ["a same-origin POST", {}, true],
    ["a same-origin POST, default port spelled out", { host: "example.org", origin: "http://example.org:80" }, true],
    ["a POST from another site", { origin: "http://evil.example", fetchSite: "cross-site" }, false],
    ["a POST from another origin on the LAN (same-site)", { origin: "http://192.168.1.20:9999", fetchSite: "same-site" }, false],
    ["a POST with Origin null (sandboxed frame, file:)", { origin: "null" }, false],
    ["an https page posting to the http server", { origin: "https://192.168.1.20:8567" }, false],
    ["a program's POST (no Origin, no Sec-Fetch-Site)", { origin: undefined, fetchSite: undefined }, true],
    [
      "a GET of the API from another site (fetch, no-cors)",
      { method: "GET", origin: undefined, fetchSite: "cross-site", fetchMode: "no-cors" },
      false,
    ],
    [
      "a link to the dashboard from another site (navigation)",
      { method: "GET", origin: undefined, fetchSite: "cross-site", fetchMode: "navigate" },
      true,
    ],
    [
      "a form POST from another site (navigation, but a POST)",
      { origin: "http://evil.example", fetchSite: "cross-site", fetchMode: "navigate" },
      false,
    ],
    ["a same-origin GET", { method: "GET", origin: undefined }, true],
  ];
  it.each(cases)("%s: allowed=%s", (_name, facts, allowed) => {
    expect(checkOrigin({ ...base, ...facts }, lan).ok).toBe(allowed);
  });

  it("checks a socket handshake's Origin even though it is a GET", () => {
    expect(checkOrigin({ ...base, method: "GET", origin: "http://evil.example", fetchSite: undefined }, lan, true).ok).toBe(false);
    expect(checkOrigin({ ...base, method: "GET" }, lan, true).ok).toBe(true);
  });

  it("trusts allow-listed origins", () => {
    const policy = { allowOrigins: ["https://study.example.org"], loopbackOnly: false };
    expect(checkOrigin({ ...base, origin: "https://study.example.org" }, policy).ok).toBe(true);
    expect(checkOrigin({ ...base, origin: "https://study.example.org.evil.example" }, policy).ok).toBe(false);
  });

  it("compares with the scheme the server serves", () => {
    expect(checkOrigin({ ...base, origin: "https://192.168.1.20:8567", secure: true }, lan).ok).toBe(true);
  });
});

describe("checkHost", () => {
  it("serving loopback only, answers loopback names only (no DNS rebinding)", () => {
    for (const host of ["127.0.0.1:8567", "localhost:8567", "[::1]:8567", "app.localhost"])
      expect(checkHost({ host }, local).ok).toBe(true);
    const rebound = checkHost({ host: "evil.example:8567" }, local);
    expect(rebound).toMatchObject({ ok: false, status: 421 });
    expect(checkHost({ host: "192.168.1.20:8567" }, local).ok).toBe(false);
  });

  it("answers allow-listed hosts too", () => {
    expect(checkHost({ host: "study.example.org" }, { allowOrigins: ["https://study.example.org"], loopbackOnly: true }).ok).toBe(true);
  });

  it("open to the LAN, answers any name (pairing guards it)", () => {
    expect(checkHost({ host: "laptop.local:8567" }, lan).ok).toBe(true);
  });

  it("refuses a missing or malformed Host", () => {
    expect(checkHost({ host: undefined }, lan)).toMatchObject({ ok: false, status: 400 });
    expect(checkHost({ host: "a/b" }, lan)).toMatchObject({ ok: false, status: 400 });
  });
});

describe("parseAllowOrigins and isLoopbackBind", () => {
  it("parses a comma-separated list and refuses a non-origin", () => {
    expect(parseAllowOrigins("https://A.example, http://b.example:8080/")).toEqual(["https://a.example", "http://b.example:8080"]);
    expect(parseAllowOrigins(undefined)).toEqual([]);
    expect(() => parseAllowOrigins("https://a.example/path")).toThrow(/is not an origin/);
  });

  it("knows which bind addresses serve this machine only", () => {
    expect(isLoopbackBind("127.0.0.1")).toBe(true);
    expect(isLoopbackBind("::1")).toBe(true);
    expect(isLoopbackBind("localhost")).toBe(true);
    expect(isLoopbackBind("0.0.0.0")).toBe(false);
    expect(isLoopbackBind("::")).toBe(false);
    expect(isLoopbackBind("192.168.1.20")).toBe(false);
  });
});
