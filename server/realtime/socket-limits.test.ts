// The socket limits on a real socket.io server (port 0) with real clients: handshakes past the
// limits refused with their sentence, slots given back on close, a socket over its event budget cut
// while the others go on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connectClient, type Socket as ClientSocket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { SocketSlots } from "./socket-budget.ts";
import { socketLimits } from "./socket-limits.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(slots: SocketSlots) {
  const server = http.createServer((_req, res) => res.end("ok"));
  const log: string[] = [];
  const limits = socketLimits((line) => log.push(line), undefined, slots);
  const io = new Server(server, { allowRequest: limits.allowRequest });
  limits.watch(io as never);
  const received = new Map<string, number>();
  io.on("connection", (socket) => {
    limits.budgetEvents(socket as never);
    socket.on("ping-me", (ack: (n: number) => void) => {
      received.set(socket.id, (received.get(socket.id) ?? 0) + 1);
      if (typeof ack === "function") ack(received.get(socket.id)!);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => io.close(() => resolve(undefined))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, log, io };
}

function client(url: string, transport: "websocket" | "polling" = "websocket"): Promise<{ socket: ClientSocket; ok: boolean }> {
  const socket = connectClient(url, { transports: [transport], reconnection: false, forceNew: true });
  cleanups.push(() => socket.disconnect());
  return new Promise((resolve) => {
    socket.once("connect", () => resolve({ socket, ok: true }));
    socket.once("connect_error", () => resolve({ socket, ok: false }));
  });
}

describe("socket limits", () => {
  it("admits as many sockets as an address may open at once, refuses the rest, and admits again after one closes", async () => {
    const slots = new SocketSlots(100, 3);
    const { url } = await startServer(slots);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => client(url, i % 2 ? "polling" : "websocket")));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(slots.open).toBe(3);
    const open = results.find((r) => r.ok)!;
    open.socket.disconnect();
    await expect.poll(() => slots.open).toBe(2);
    expect((await client(url)).ok).toBe(true);
  });

  it("tells a refused handshake why, in the response a page's client reads", async () => {
    const slots = new SocketSlots(1, 1);
    const { url, log } = await startServer(slots);
    expect((await client(url)).ok).toBe(true);
    const refused = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "StudyLoop has 1 connections open, its most: close some StudyLoop tabs, then reload this page.",
    );
    expect(slots.open).toBe(1);
    expect(log).toEqual([]); // summed up later, once: a storm does not write a line per refusal
  });

  it("disconnects a socket that sends a burst of events past its budget; the others and plain requests go on", async () => {
    const { url, log } = await startServer(new SocketSlots());
    const flooder = await client(url);
    const calm = await client(url);
    let closed = "";
    flooder.socket.on("disconnect", (reason) => (closed = reason));
    for (let i = 0; i < 30_000; i++) flooder.socket.emit("ping-me");
    await expect.poll(() => closed, { timeout: 20_000 }).toBe("io server disconnect");
    expect(await calm.socket.timeout(10_000).emitWithAck("ping-me")).toBe(1);
    expect(await (await fetch(url)).text()).toBe("ok");
    expect(log.some((line) => line.includes("sent events faster than a page does"))).toBe(true);
  });

  it("lets a page's pace through: a few hundred events at once, and then steady typing", async () => {
    const { url } = await startServer(new SocketSlots());
    const page = await client(url);
    let closed = "";
    page.socket.on("disconnect", (reason) => (closed = reason));
    for (let i = 0; i < 500; i++) page.socket.emit("ping-me");
    expect(await page.socket.timeout(10_000).emitWithAck("ping-me")).toBe(501);
    expect(closed).toBe("");
  });
});
