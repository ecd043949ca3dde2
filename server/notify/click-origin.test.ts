// The origin a notification's link opens: one of the server's own, whatever a page claims.
import { describe, expect, it } from "vitest";
import { clickOrigin, ownOrigins } from "./click-origin.ts";

describe("ownOrigins", () => {
  it("served to loopback: its address, the other loopback names, then --allow-origin", () => {
    expect(ownOrigins({ baseUrls: ["http://127.0.0.1:8080"], allowOrigins: ["https://study.example.org"], lan: false })).toEqual([
      "http://127.0.0.1:8080",
      "http://localhost:8080",
      "http://[::1]:8080",
      "https://study.example.org",
    ]);
  });

  it("on the LAN: a LAN address first (a phone opens the link), loopback after", () => {
    expect(ownOrigins({ baseUrls: ["https://127.0.0.1:8443", "https://192.168.1.5:8443"], allowOrigins: [], lan: true })).toEqual([
      "https://192.168.1.5:8443",
      "https://127.0.0.1:8443",
      "https://localhost:8443",
      "https://[::1]:8443",
    ]);
  });
});

describe("clickOrigin", () => {
  const own = ["http://192.168.1.5:8080", "http://127.0.0.1:8080", "http://localhost:8080"];
  it.each([
    ["a hostile origin", "http://evil.example", "http://192.168.1.5:8080"],
    ["a look-alike with another port", "http://127.0.0.1:9999", "http://192.168.1.5:8080"],
    ["one of the server's own", "http://localhost:8080", "http://localhost:8080"],
    ["its own, written in capitals", "HTTP://LOCALHOST:8080", "http://localhost:8080"],
    ["not an origin at all", "javascript:alert(1)", "http://192.168.1.5:8080"],
    ["none", null, "http://192.168.1.5:8080"],
  ])("%s", (_name, claimed, expected) => {
    expect(clickOrigin(claimed, own)).toBe(expected);
  });

  it("no origin of its own: no link", () => {
    expect(clickOrigin("http://evil.example", [])).toBeUndefined();
  });
});
