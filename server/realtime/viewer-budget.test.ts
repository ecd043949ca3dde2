// A real socket.io server and a client that stops reading: the server queues at most the budget for
// it, then drops it; a client that reads is never dropped.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server, type Socket } from "socket.io";
import type { Socket as ClientSocket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { socketParser } from "../../common/realtime/socket-parser.ts";
import { connectedClient } from "./test-client.ts";
import { overBudget, sendWithinBudget, unsentBytes } from "./viewer-budget.ts";

const LIMIT = 1024 * 1024;
const CHUNK = "x".repeat(64 * 1024);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function start(): Promise<{ url: string; io: Server }> {
  const server = http.createServer();
  const io = new Server(server, { maxHttpBufferSize: 1e6, parser: socketParser });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        void io.close();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, io };
}

const client = (url: string): Promise<ClientSocket> => connectedClient(url, cleanups);

/** Sends CHUNKs to the server-side socket until it is dropped or `total` bytes went out; yields between sends. */
async function flood(socket: Socket, total: number): Promise<{ sent: number; dropped: boolean; maxUnsent: number }> {
  let sent = 0;
  let maxUnsent = 0;
  const lines: string[] = [];
  while (sent < total) {
    const ok = sendWithinBudget(
      socket,
      () => socket.emit("data", CHUNK),
      (l) => lines.push(l),
      LIMIT,
    );
    maxUnsent = Math.max(maxUnsent, socket.connected ? unsentBytes(socket) : 0);
    if (!ok) return { sent, dropped: true, maxUnsent };
    sent += CHUNK.length;
    await new Promise((r) => setImmediate(r));
  }
  return { sent, dropped: false, maxUnsent };
}

describe("viewer budget", () => {
  it("the bound is a plain comparison", () => {
    expect(overBudget(LIMIT, LIMIT)).toBe(false);
    expect(overBudget(LIMIT + 1, LIMIT)).toBe(true);
  });

  it("drops a client that stops reading once its unsent bytes pass the bound", async () => {
    const { url, io } = await start();
    const connected = new Promise<Socket>((resolve) => io.once("connection", resolve));
    const reader = await client(url);
    const serverSide = await connected;
    // Stop reading at the TCP level: the kernel's buffers fill, then engine.io's write buffer grows.
    const engine = reader.io.engine as unknown as { transport: { ws: { _socket: { pause(): void } } } };
    engine.transport.ws._socket.pause();
    const disconnected = new Promise<string>((resolve) => serverSide.once("disconnect", resolve));
    const result = await flood(serverSide, 200 * 1024 * 1024);
    expect(result.dropped).toBe(true);
    // What the server held never passed the bound by more than one chunk (plus JSON framing).
    expect(result.maxUnsent).toBeLessThanOrEqual(LIMIT + CHUNK.length + 64);
    // Everything it sent before the drop is the bound plus what the kernel's socket buffers took.
    expect(result.sent).toBeLessThan(200 * 1024 * 1024);
    expect(await disconnected).toBeTruthy();
  });

  it("never drops a client that reads", async () => {
    const { url, io } = await start();
    const connected = new Promise<Socket>((resolve) => io.once("connection", resolve));
    const reader = await client(url);
    let received = 0;
    reader.on("data", (d: string) => (received += d.length));
    const serverSide = await connected;
    const result = await flood(serverSide, 8 * LIMIT);
    expect(result.dropped).toBe(false);
    await expect.poll(() => received, { timeout: 10_000 }).toBe(8 * LIMIT);
  });
});
