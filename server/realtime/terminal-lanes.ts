// The terminal lanes: one plain WebSocket per open terminal (common/terminal/lane-codec.ts), paired
// with the page's socket.io connection, which keeps attaching, resizing and every other event. A
// keystroke's echo and a flood's output cross it as bare messages, as in the bare pipeline the bench
// compares against. A lane passes the same gate as a socket.io handshake (Host, Origin, paired device),
// must come from the device of the connection it names, and lives no longer than that connection.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { decodeLaneMessage, LANE_PATH, LaneClose } from "../../common/terminal/lane-codec.ts";
import { encodeLaneFrame, type LaneFrame } from "./lane-frames.ts";
import { SessionIdSchema } from "./payloads.ts";
import { overBudget } from "./viewer-budget.ts";

type AllowRequest = (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void) => void;

export const LaneLimits = {
  /** The largest message a page may send: socket.io's own bound (maxHttpBufferSize) for the same input. */
  MAX_MESSAGE_BYTES: 256 * 1024,
  /**
   * How long an attach that asked for a lane waits for it to open (the page opens it beside the attach
   * request) before its frames go on the socket instead (ms).
   */
  OPEN_WAIT_MS: 1_500,
  /**
   * How often each open lane is pinged (ms; the browser answers by itself). A learner reading for a
   * while sends nothing and the agent prints nothing: without it a proxy's idle timeout (nginx: 60 s)
   * would close the lane, and the page would attach again. socket.io pings its own socket as often.
   */
  PING_MS: 25_000,
} as const;

export type LaneLimitsShape = { readonly [K in keyof typeof LaneLimits]: number };

/** What the lanes need from the socket.io side (server/realtime/terminal-realtime.ts). */
export interface LaneHost {
  /** The handshake of the connected socket.io socket with this id; undefined when there is none. */
  socketRequest(socketId: string): IncomingMessage | undefined;
  input(socketId: string, sessionId: string, data: string, binary: boolean): void;
  ack(socketId: string, sessionId: string, chars: number): void;
  /** This socket's lane for this session is gone (the page left, or the link dropped). */
  closed(socketId: string, sessionId: string): void;
}

export interface LaneGate {
  /** socket.io's `allowRequest` (server/security/socket-guard.ts): Host, Origin, paired device. */
  readonly allowRequest?: AllowRequest;
  /** Whether two requests come from the same device (both passed the gate). */
  readonly sameDevice?: (a: IncomingMessage, b: IncomingMessage) => boolean;
}

export class TerminalLanes {
  private readonly wss: WebSocketServer;
  /** socket.io socket id → session id → its lane. */
  private readonly lanes = new Map<string, Map<string, WebSocket>>();
  /** Attaches waiting for their lane to open: `${socketId} ${sessionId}` → their resolvers. */
  private readonly waiting = new Map<string, Set<(open: boolean) => void>>();

  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly host: LaneHost,
    private readonly gate: LaneGate,
    private readonly log: (line: string) => void,
    private readonly limits: LaneLimitsShape = LaneLimits,
  ) {
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: limits.MAX_MESSAGE_BYTES });
    this.pinger = setInterval(() => {
      for (const ws of this.wss.clients) if (ws.readyState === 1) ws.ping();
    }, limits.PING_MS);
    this.pinger.unref();
  }

  /** For the http server's `upgrade` event: takes the lane's upgrades and returns true; false for any other. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? "/", "http://lane");
    if (url.pathname !== LANE_PATH) return false;
    const socketId = url.searchParams.get("socket") ?? "";
    const sessionId = url.searchParams.get("session") ?? "";
    const refuse = (status: number, reason: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : "Forbidden"}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${reason}\n`,
      );
    };
    if (!SessionIdSchema.safeParse(sessionId).success || socketId.length === 0 || socketId.length > 64) {
      refuse(400, "This terminal connection is not valid: reload the page.");
      return true;
    }
    const allow: AllowRequest = this.gate.allowRequest ?? ((_req, callback) => callback(null, true));
    allow(req, (reason, ok) => {
      if (!ok) return refuse(403, reason ?? "This device may not open the terminal.");
      const paired = this.host.socketRequest(socketId);
      if (!paired || !(this.gate.sameDevice?.(req, paired) ?? true)) {
        return refuse(403, "This terminal connection names no open page of this device: reload the page.");
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, socketId, sessionId));
    });
    return true;
  }

  /** The open lane of this socket for this session, if any. */
  has(socketId: string, sessionId: string): boolean {
    return this.lanes.get(socketId)?.get(sessionId)?.readyState === 1;
  }

  /** Resolves true once this socket's lane for this session is open, false if it is not within `waitMs`. */
  whenOpen(socketId: string, sessionId: string, waitMs: number = this.limits.OPEN_WAIT_MS): Promise<boolean> {
    if (this.has(socketId, sessionId)) return Promise.resolve(true);
    const key = `${socketId} ${sessionId}`;
    return new Promise((resolve) => {
      let waiters = this.waiting.get(key);
      if (!waiters) this.waiting.set(key, (waiters = new Set()));
      const done = (open: boolean) => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve(open);
      };
      const timer = setTimeout(() => done(false), waitMs);
      waiters.add(done);
    });
  }

  /**
   * Sends a frame on the lane; false when there is no open lane. A lane whose page stopped reading
   * (more than the viewer budget queued for it) is cut, as a socket.io viewer is (viewer-budget.ts):
   * its page reconnects and gets the missed chunks or a fresh snapshot.
   */
  send(socketId: string, sessionId: string, frame: LaneFrame, maxUnsentBytes?: number): boolean {
    const ws = this.lanes.get(socketId)?.get(sessionId);
    if (!ws || ws.readyState !== 1) return false;
    if (overBudget(ws.bufferedAmount, maxUnsentBytes)) {
      this.log(
        `Dropped a terminal lane of viewer ${socketId}: ${Math.round(ws.bufferedAmount / 1024 / 1024)} MB of output queued for it was not being read (it resyncs when it reconnects).`,
      );
      ws.terminate();
      return false;
    }
    ws.send(encodeLaneFrame(frame));
    return true;
  }

  /**
   * The page says its lane for this session closed before it ever opened (a proxy without WebSockets).
   * The page asks once its attach is acknowledged, so the attach is waiting for the lane (it goes on the
   * socket now, not after OPEN_WAIT_MS) or has chosen. A lane this end did see open (a proxy that
   * connected on, then failed the page) is cut, which lets the terminal sent on it go (LaneHost.closed).
   */
  neverOpened(socketId: string, sessionId: string): void {
    const key = `${socketId} ${sessionId}`;
    const waiters = this.waiting.get(key);
    if (waiters) {
      for (const done of [...waiters]) done(false);
      return;
    }
    const lanes = this.lanes.get(socketId);
    const ws = lanes?.get(sessionId);
    if (!lanes || !ws) return;
    lanes.delete(sessionId);
    if (lanes.size === 0) this.lanes.delete(socketId);
    ws.close(LaneClose.REPLACED, "Its page could not open it.");
    this.host.closed(socketId, sessionId);
  }

  /** The socket.io socket left: its lanes close with it. */
  closeSocket(socketId: string): void {
    const lanes = this.lanes.get(socketId);
    if (!lanes) return;
    this.lanes.delete(socketId);
    for (const ws of lanes.values()) ws.close(LaneClose.SOCKET_LEFT, "The page's connection closed.");
  }

  close(): void {
    clearInterval(this.pinger);
    for (const waiters of [...this.waiting.values()]) for (const done of [...waiters]) done(false);
    for (const socketId of [...this.lanes.keys()]) this.closeSocket(socketId);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private open(ws: WebSocket, socketId: string, sessionId: string): void {
    // The socket.io connection may have closed while the gate looked the device up.
    if (!this.host.socketRequest(socketId)) {
      ws.close(LaneClose.SOCKET_LEFT, "The page's connection closed.");
      return;
    }
    let lanes = this.lanes.get(socketId);
    if (!lanes) this.lanes.set(socketId, (lanes = new Map()));
    // A page opening a lane again for the same terminal replaces the old one.
    const previous = lanes.get(sessionId);
    lanes.set(sessionId, ws);
    previous?.close(LaneClose.REPLACED, "Replaced by a newer connection.");
    for (const done of [...(this.waiting.get(`${socketId} ${sessionId}`) ?? [])]) done(true);

    ws.on("message", (raw, isBinary) => {
      if (isBinary) return;
      const message = decodeLaneMessage(raw.toString());
      if (message?.kind === "input") this.host.input(socketId, sessionId, message.data, message.binary);
      else if (message?.kind === "ack") this.host.ack(socketId, sessionId, message.chars);
    });
    ws.on("error", (error) => this.log(`A terminal lane failed: ${error.message}`));
    ws.on("close", () => {
      const current = this.lanes.get(socketId);
      if (current?.get(sessionId) !== ws) return; // replaced, or its socket already left
      current.delete(sessionId);
      if (current.size === 0) this.lanes.delete(socketId);
      this.host.closed(socketId, sessionId);
    });
  }
}
