// The state load test's client: one keep-alive HTTP/1.1 connection that sends a fixed GET and reads
// each answer by its content-length, nothing else. It shares the machine's two cores with the server,
// and node:http's client (agent, parser, request and response objects) cost ~0.3 ms of CPU an answer,
// half the server's own: its queue was part of the latency measured (docs/performance/state.md, "Round 8").
import net from "node:net";

const HEADERS_END = Buffer.from("\r\n\r\n");

export class RawGetConnection {
  private readonly socket: net.Socket;
  private readonly request: Buffer;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (status: number) => void; reject: (error: Error) => void } | undefined;

  private constructor(socket: net.Socket, target: URL) {
    this.socket = socket;
    this.request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`);
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.received(chunk));
    socket.on("error", (error) => this.fail(error));
    socket.on("close", () => this.fail(new Error("The server closed the connection")));
  }

  static open(target: URL): Promise<RawGetConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(target.port), target.hostname, () => {
        socket.off("error", reject);
        resolve(new RawGetConnection(socket, target));
      });
      socket.once("error", reject);
    });
  }

  /** Sends the GET and resolves with the answer's status once its whole body is in. One at a time. */
  get(): Promise<number> {
    if (this.pending) return Promise.reject(new Error("One request at a time on a connection"));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(this.request);
    });
  }

  close(): void {
    this.pending = undefined;
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const end = this.buffered.indexOf(HEADERS_END);
    if (end < 0 || !this.pending) return;
    const head = this.buffered.toString("latin1", 0, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`An answer without content-length: ${head.split("\r\n", 1)[0]}`));
    const total = end + HEADERS_END.length + Number(length[1]);
    if (this.buffered.length < total) return;
    const status = Number(head.slice(9, 12));
    this.buffered = this.buffered.subarray(total);
    const { resolve } = this.pending;
    this.pending = undefined;
    resolve(status);
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}
