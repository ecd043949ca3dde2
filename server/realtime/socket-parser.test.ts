// The wire's parser (common/realtime/socket-parser.ts) between a real socket.io server and client over a
// WebSocket: a packet with bytes is one message each way and arrives byte for byte; a text packet is
// the text socket.io writes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { socketParser } from "../../common/realtime/socket-parser.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

describe("over a real WebSocket", () => {
  async function pair(): Promise<{ server: Server; client: ClientSocket; received: (string | ArrayBuffer | Uint8Array)[] }> {
    const httpServer = http.createServer();
    const server = new Server(httpServer, { parser: socketParser });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => void server.close(() => resolve())));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    const client = connect(url, { transports: ["websocket"], reconnection: false, forceNew: true, parser: socketParser });
    cleanups.push(() => void client.disconnect());
    await new Promise<void>((resolve, reject) => {
      client.once("connect", () => resolve());
      client.once("connect_error", reject);
    });
    // Every engine.io message the client receives from now on: one per WebSocket message.
    const received: (string | ArrayBuffer | Uint8Array)[] = [];
    client.io.engine.on("packet", (p: { type: string; data?: string | ArrayBuffer | Uint8Array }) => {
      if (p.type === "message" && p.data !== undefined) received.push(p.data);
    });
    return { server, client, received };
  }

  it("a packet with bytes is one message each way, a text packet the text socket.io writes", async () => {
    const { server, client, received } = await pair();
    const bytes = Buffer.from("\u001b[1mbold\u001b[0m ".repeat(3000));
    const got = new Promise<[string, { bytes: Buffer; seq: number }]>((resolve) =>
      client.on("frame", (a: string, b: { bytes: Buffer; seq: number }) => resolve([a, b])),
    );
    const echo = new Promise<string>((resolve) => client.on("echo", (text: string) => resolve(text)));
    const [socket] = [...server.sockets.sockets.values()];
    socket!.emit("frame", "s1", { seq: 5, bytes });
    socket!.emit("echo", "a");
    const [id, frame] = await got;
    expect(id).toBe("s1");
    expect(frame.seq).toBe(5);
    expect(Buffer.from(frame.bytes).equals(bytes)).toBe(true);
    expect(await echo).toBe("a");
    expect(received).toHaveLength(2);
    expect(received[0]).toBeInstanceOf(Uint8Array);
    expect(received[1]).toBe('2["echo","a"]');

    // the client's packets with bytes reach the server the same way, and its ack comes back
    const upload = new Promise<{ bytes: Buffer }>((resolve) =>
      socket!.on("upload", (payload: { bytes: Buffer }, ack: (reply: string) => void) => {
        ack("kept");
        resolve(payload);
      }),
    );
    const reply = await new Promise<string>((resolve) => client.emit("upload", { bytes: Buffer.from([0, 255, 7]) }, resolve));
    expect(reply).toBe("kept");
    expect(Buffer.from((await upload).bytes)).toEqual(Buffer.from([0, 255, 7]));
  });

  it("a binary message that is not a packed packet closes that client only; the server keeps serving", async () => {
    const { server, client } = await pair();
    const closed = new Promise<string>((resolve) => server.sockets.sockets.values().next().value!.on("disconnect", resolve));
    // straight onto the engine, under socket.io's parser: bytes with no packet around them
    (client.io.engine as unknown as { write(data: Uint8Array): void }).write(Uint8Array.of(9, 9, 9, 9, 9, 9));
    expect(await closed).toBe("forced close"); // socket.io closes a connection whose message did not decode

    const other = connect(`http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`, {
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
      parser: socketParser,
    });
    cleanups.push(() => void other.disconnect());
    await new Promise<void>((resolve) => other.once("connect", () => resolve()));
    const [second] = [...server.sockets.sockets.values()];
    const got = new Promise<Buffer>((resolve) => other.on("frame", (b: { bytes: Buffer }) => resolve(b.bytes)));
    second!.emit("frame", { bytes: Buffer.from("still here") });
    expect(Buffer.from(await got).toString()).toBe("still here");
  });
});
