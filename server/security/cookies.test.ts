import { describe, expect, it } from "vitest";
import { deviceCookieName, parseCookies, serializeCookie } from "./cookies.ts";

describe("parseCookies", () => {
  it("reads name=value pairs, the first of a repeated name winning", () => {
    const c = parseCookies("a=1; b=two;  studyloop_device_80=abc_-XYZ ; a=3");
    expect(c.get("a")).toBe("1");
    expect(c.get("b")).toBe("two");
    expect(c.get("studyloop_device_80")).toBe("abc_-XYZ");
  });

  it.each([undefined, "", ";;;", "novalue", "=nameless"])("finds nothing in %j", (header) => {
    expect(parseCookies(header).size).toBe(0);
  });

  it("unquotes and URL-decodes values, keeping malformed escapes as they are", () => {
    const c = parseCookies('q="quoted"; e=a%20b; bad=%E0%A4%A');
    expect(c.get("q")).toBe("quoted");
    expect(c.get("e")).toBe("a b");
    expect(c.get("bad")).toBe("%E0%A4%A");
  });
});

describe("serializeCookie", () => {
  it("is HttpOnly and SameSite=Strict on the whole site, Secure only under TLS", () => {
    expect(serializeCookie("n", "v", { secure: false, maxAgeSeconds: 60 })).toBe("n=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=60");
    expect(serializeCookie("n", "v", { secure: true })).toBe("n=v; Path=/; HttpOnly; SameSite=Strict; Secure");
  });

  it("refuses values that could inject attributes", () => {
    expect(() => serializeCookie("n", "v; Domain=evil.example", { secure: false })).toThrow();
    expect(() => serializeCookie("n;x", "v", { secure: false })).toThrow();
  });

  it("names the device cookie by port, so two servers on one host do not overwrite each other's", () => {
    expect(deviceCookieName(8567)).toBe("studyloop_device_8567");
  });
});
