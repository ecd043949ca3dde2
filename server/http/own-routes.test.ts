import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { Runtime } from "../runtime.ts";
import { ownRoute } from "./own-routes.ts";
import { earlyWorkerUrl } from "./early-worker-script.ts";
import { earlyWorkerSource } from "../../common/study/early-worker.ts";

/** A response that keeps what was written to it. */
function response() {
  const headers: Record<string, unknown> = {};
  const sent = { status: 0, body: undefined as string | undefined, ended: false };
  const res = {
    set statusCode(value: number) {
      sent.status = value;
    },
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = value),
    end: (body?: string) => Object.assign(sent, { body, ended: true }),
  } as unknown as ServerResponse;
  return { res, headers, sent };
}

const runtimeWith = (state: () => Promise<unknown>) => ({ sessions: { state } }) as unknown as Runtime;
const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;

describe("ownRoute", () => {
  it.each([
    ["GET", "/api/session/state", true],
    ["HEAD", "/api/session/state", true],
    ["GET", "/api/session/state?x=1", true],
    ["POST", "/api/session/state", false],
    ["GET", "/api/session/state/", false],
    ["GET", "/api/session/start", false],
    ["GET", "/study", false],
    ["GET", "/early-keys-worker.js?v=abc", true],
    ["POST", "/early-keys-worker.js", false],
  ])("%s %s is ours: %s", (method, url, ours) => {
    expect(
      ownRoute(
        request(method, url),
        response().res,
        runtimeWith(async () => ({})),
        () => {},
      ) !== undefined,
    ).toBe(ours);
  });

  it("answers the state as JSON, never cached", async () => {
    const { res, headers, sent } = response();
    await ownRoute(
      request("GET", "/api/session/state"),
      res,
      runtimeWith(async () => ({ state: "idle" })),
      () => {},
    )!();
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body!)).toEqual({ state: "idle" });
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["cache-control"]).toBe("no-store");
  });

  it("turns a fault into a plain 500 with a sentence, and logs the cause", async () => {
    const { res, sent } = response();
    const lines: string[] = [];
    const failing = runtimeWith(async () => {
      throw new Error("disk on fire");
    });
    await ownRoute(request("GET", "/api/session/state"), res, failing, (line) => lines.push(line))!();
    expect(sent.status).toBe(500);
    expect(JSON.parse(sent.body!).error).toMatch(/Something went wrong/);
    expect(sent.body).not.toContain("disk on fire");
    expect(lines.join("\n")).toContain("disk on fire");
  });

  it("serves the early keys' worker as a script, cached for good under its versioned URL", async () => {
    const { res, headers, sent } = response();
    const url = earlyWorkerUrl();
    expect(url).toMatch(/^\/early-keys-worker\.js\?v=[\w-]{16}$/);
    await ownRoute(
      request("GET", url),
      res,
      runtimeWith(async () => ({})),
      () => {},
    )!();
    expect(sent.status).toBe(200);
    expect(sent.body).toBe(earlyWorkerSource());
    expect(headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
