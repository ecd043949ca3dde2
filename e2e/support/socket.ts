// A typed socket.io client in the test process: a viewer without a browser.
import { io, type Socket } from "socket.io-client";
import { socketParser } from "../../common/realtime/socket-parser";
import type { ClientToServerEvents, ServerToClientEvents, TerminalFrameView } from "../../server/realtime/events";

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** `headers` (Node only): a device cookie, an Origin. `insecure` accepts a self-signed certificate. */
export async function connect(
  url: string,
  opts: { headers?: Record<string, string>; transport?: "websocket" | "polling"; insecure?: boolean } = {},
): Promise<TestSocket> {
  const socket: TestSocket = io(url, {
    path: "/socket.io",
    transports: [opts.transport ?? "websocket"],
    reconnection: false,
    forceNew: true,
    parser: socketParser,
    ...(opts.headers ? { extraHeaders: opts.headers } : {}),
    ...(opts.insecure ? { rejectUnauthorized: false } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Collects the frames and text a viewer receives, acknowledging as a browser would. */
export class Viewer {
  readonly frames: TerminalFrameView[] = [];
  text = "";
  constructor(
    readonly socket: TestSocket,
    readonly sessionId: string,
    private readonly autoAck = true,
  ) {
    socket.on("terminal:frame", (id, frame) => {
      if (id !== sessionId) return;
      this.frames.push(frame);
      if (frame.type === "output" || frame.type === "replay") {
        this.text += frame.data;
        if (this.autoAck) socket.emit("terminal:ack", { sessionId, chars: frame.data.length });
      }
    });
  }

  attach(sinceSeq?: number) {
    return this.socket.emitWithAck("terminal:attach", { sessionId: this.sessionId, ...(sinceSeq !== undefined ? { sinceSeq } : {}) });
  }

  input(data: string) {
    this.socket.emit("terminal:input", { sessionId: this.sessionId, data });
  }

  lastSeq(): number {
    let seq = -1;
    for (const f of this.frames) if (f.type !== "resize") seq = Math.max(seq, f.seq);
    return seq;
  }

  async waitFor(text: string | RegExp, timeout = 10_000): Promise<void> {
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      if (typeof text === "string" ? this.text.includes(text) : text.test(this.text)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`viewer did not see ${String(text)}; saw:\n${this.text.slice(-2000)}`);
  }
}
