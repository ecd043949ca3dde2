// Notifications leave only for addresses the learner meant: real servers on 127.0.0.1 stand in for
// another service on this machine, a redirecting ntfy server, and ports that are closed, reset or
// silent (which must all read the same).
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startNtfyServer } from "../../e2e/support/push-endpoint.ts";
import { UNREACHABLE, refuseUrl, sendOutbound, type OutboundRequest } from "./outbound.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function ntfy(opts: { redirectTo?: string } = {}) {
  const server = await startNtfyServer(opts);
  closers.push(server.close);
  return server;
}

const post = (url: string, allowHosts: readonly string[], timeoutMs = 5_000): OutboundRequest => ({
  url,
  method: "POST",
  headers: { "content-type": "text/plain" },
  body: "hello",
  timeoutMs,
  allowHosts,
});

/** A TCP server whose every connection gets `onConnection` (reset at once, or left silent). */
async function tcp(onConnection: (socket: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("sendOutbound", () => {
  it("refuses a loopback address of another service unless allowed, and connects to nothing", async () => {
    const other = await ntfy();
    const result = await sendOutbound(post(other.url, []));
    expect(result).toEqual({
      ok: false,
      refused: true,
      detail: expect.stringMatching(/^StudyLoop does not send notifications to 127\.0\.0\.1: it is on this machine or a private network\./),
    });
    expect(other.received).toEqual([]);
    expect(await sendOutbound(post(other.url, ["127.0.0.1"]))).toEqual({ ok: true, status: 200 });
    expect(other.received).toHaveLength(1);
  });

  it("judges a name by the address it resolves to when connecting (localhost is loopback), unless the name is allowed", async () => {
    const other = await ntfy();
    const byName = other.url.replace("127.0.0.1", "localhost");
    expect(refuseUrl(byName, [])).toBeNull(); // a name cannot be judged when it is stored
    const result = await sendOutbound(post(byName, []));
    expect(result).toMatchObject({
      ok: false,
      refused: true,
      detail: expect.stringMatching(/^StudyLoop does not send notifications to localhost/),
    });
    expect(other.received).toEqual([]);
    expect(await sendOutbound(post(byName, ["localhost"]))).toMatchObject({ ok: true });
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", /link-local or cloud metadata address/],
    ["http://[fd00:ec2::254]/latest/meta-data/", /link-local or cloud metadata address/],
    ["http://2852039166/latest/meta-data/", /link-local or cloud metadata address/],
    ["https://metadata.google.internal/computeMetadata/v1/", /link-local or cloud metadata address/],
    ["http://[fe80::1]/", /link-local or cloud metadata address/],
    ["http://10.0.0.1/topic", /on this machine or a private network/],
    ["http://100.64.0.1/topic", /on this machine or a private network/],
    ["http://[::ffff:127.0.0.1]:9/topic", /on this machine or a private network/],
    ["http://0.0.0.0:9/topic", /on this machine or a private network/],
    ["file:///etc/passwd", /must start with https:\/\/ or http:\/\//],
  ])("refuses %s before connecting", async (url, sentence) => {
    expect(refuseUrl(url, [])).toMatch(sentence);
    expect(await sendOutbound(post(url, []))).toMatchObject({ ok: false, refused: true, detail: expect.stringMatching(sentence) });
  });

  it("metadata stays refused even when the learner lists it", () => {
    expect(refuseUrl("http://169.254.169.254/", ["169.254.169.254"])).toMatch(/cloud metadata/);
    expect(refuseUrl("https://metadata.google.internal/", ["metadata.google.internal"])).toMatch(/cloud metadata/);
  });

  it("never follows a redirect: the method and body do not go on to the other address", async () => {
    const target = await ntfy();
    const redirecting = await ntfy({ redirectTo: target.url });
    const result = await sendOutbound(post(redirecting.url, ["127.0.0.1"]));
    expect(result).toMatchObject({
      ok: false,
      refused: false,
      detail: "the server answered with a redirect (307), which StudyLoop does not follow",
    });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toEqual([]);
  });

  it("a closed, a resetting and a silent port read the same: nothing tells a port's state", async () => {
    const closed = await closedPort();
    const reset = await tcp((socket) => socket.resetAndDestroy());
    const silent = await tcp(() => undefined);
    const results = await Promise.all(
      [closed, reset, silent].map((port) => sendOutbound(post(`http://127.0.0.1:${port}/topic`, ["127.0.0.1"], 500))),
    );
    expect(results).toEqual([0, 1, 2].map(() => ({ ok: false, refused: false, detail: UNREACHABLE })));
  });
});
