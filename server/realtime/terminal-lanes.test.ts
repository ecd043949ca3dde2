// The lanes' keep-alive, on a real http server and a real WebSocket client: an open lane is pinged
// while nothing else crosses it (so a proxy's idle timeout does not close it), and no longer once the
// lanes are closed. A page's word that its lane never opened ends an attach's wait, or cuts the lane
// only this end saw open. The rest of the lanes' behaviour runs against a whole server in
// e2e/terminal-lane.spec.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { laneUrl } from "../../common/terminal/lane-codec.ts";
import { LaneLimits, TerminalLanes, type LaneHost } from "./terminal-lanes.ts";

const SESSION = "6f1c2c52-4a8e-4c3a-9d5e-0f6d7c1b2a93";
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function lanesOnServer(pingMs: number, closed: string[] = []): Promise<{ lanes: TerminalLanes; origin: string }> {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const host: LaneHost = {
    socketRequest: (socketId) => (socketId === "page-socket" ? ({} as http.IncomingMessage) : undefined),
    input: () => undefined,
    ack: () => undefined,
    closed: (socketId, sessionId) => void closed.push(`${socketId} ${sessionId}`),
  };
  const lanes = new TerminalLanes(host, {}, () => undefined, { ...LaneLimits, PING_MS: pingMs });
  server.on("upgrade", (req, socket, head) => {
    if (!lanes.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => lanes.close());
  return { lanes, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function openLane(origin: string): Promise<WebSocket> {
  const ws = new WebSocket(laneUrl(origin, "page-socket", SESSION));
  cleanups.push(() => ws.terminate());
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

describe("TerminalLanes keep-alive", () => {
  it("pings an open lane while nothing else crosses it, and stops when the lanes close", async () => {
    const { lanes, origin } = await lanesOnServer(40);
    const ws = await openLane(origin);
    let pings = 0;
    ws.on("ping", () => pings++);
    await expect.poll(() => pings, { timeout: 2_000 }).toBeGreaterThanOrEqual(2);
    expect(lanes.has("page-socket", SESSION)).toBe(true);

    lanes.close();
    await new Promise((resolve) => ws.once("close", resolve));
    const after = pings;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(pings).toBe(after);
  });

  it("keeps the default interval under common proxies' idle timeouts", () => {
    // nginx's proxy_read_timeout defaults to 60 s; the lane must be pinged well within it.
    expect(LaneLimits.PING_MS).toBeLessThanOrEqual(30_000);
  });
});

describe("TerminalLanes.neverOpened", () => {
  it("ends an attach's wait for its lane at once: its frames go on the socket", async () => {
    const { lanes } = await lanesOnServer(25_000);
    const started = Date.now();
    const open = lanes.whenOpen("page-socket", SESSION, 10_000);
    lanes.neverOpened("page-socket", SESSION);
    await expect(open).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("cuts a lane this end saw open and tells the host, which lets the terminal sent on it go", async () => {
    const closed: string[] = [];
    const { lanes, origin } = await lanesOnServer(25_000, closed);
    const ws = await openLane(origin);
    await expect.poll(() => lanes.has("page-socket", SESSION)).toBe(true);
    lanes.neverOpened("page-socket", SESSION);
    expect(lanes.has("page-socket", SESSION)).toBe(false);
    expect(closed).toEqual([`page-socket ${SESSION}`]);
    await new Promise((resolve) => ws.once("close", resolve));
    // The lane's own close event does not tell the host a second time.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toHaveLength(1);
  });

  it("does nothing for a terminal with no lane and no wait", async () => {
    const closed: string[] = [];
    const { lanes } = await lanesOnServer(25_000, closed);
    lanes.neverOpened("page-socket", SESSION);
    expect(closed).toEqual([]);
    await expect(lanes.whenOpen("page-socket", SESSION, 50)).resolves.toBe(false);
  });
});
