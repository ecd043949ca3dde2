// A real socket.io server and real clients: on a clean stop the server says goodbye and each client
// closes its own WebSocket (so a page's last writes never meet a closing one); a client that does not
// hang up is closed after the wait.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import type { Socket as ClientSocket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { socketParser } from "../../common/realtime/socket-parser.ts";
import { connectedClient } from "./test-client.ts";
import { hangUp } from "./hang-up.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A server whose engine records why each connection closed: "transport close" when the client closed it. */
async function start(): Promise<{ url: string; io: Server; closes: string[] }> {
  const server = http.createServer();
  const io = new Server(server, { parser: socketParser });
  io.of("/other");
  const closes: string[] = [];
  io.engine.on("connection", (conn: { on(event: "close", fn: (reason: string) => void): void }) =>
    conn.on("close", (reason) => closes.push(reason)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, io, closes };
}

const client = (url: string): Promise<ClientSocket> => connectedClient(url, cleanups);

describe("hangUp", () => {
  it("tells each client it is disconnected and lets it close its connection itself", async () => {
    const { url, io, closes } = await start();
    const sockets = [await client(url), await client(url)];
    const reasons = sockets.map((s) => new Promise<string>((resolve) => s.once("disconnect", resolve)));
    await hangUp(io, 10_000);
    expect(await Promise.all(reasons)).toEqual(["io server disconnect", "io server disconnect"]);
    expect(closes).toEqual(["transport close", "transport close"]);
    expect(io.engine.clientsCount).toBe(0);
  });

  it("closes a connection the client keeps open (another namespace still uses it) once the wait is over", async () => {
    const { url, io, closes } = await start();
    const main = await client(url);
    // Same connection, a second namespace: the client's manager keeps the WebSocket for it.
    const other = main.io.socket("/other");
    await new Promise<void>((resolve) => other.once("connect", () => resolve()));
    await hangUp(io, 200);
    expect(closes).toEqual(["forced close"]);
    expect(io.engine.clientsCount).toBe(0);
  });

  it("returns at once with nobody connected", async () => {
    const { io, closes } = await start();
    await hangUp(io, 10_000);
    expect(closes).toEqual([]);
  });
});
