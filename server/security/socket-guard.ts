// socket.io's side of the gate: each handshake (polling or WebSocket) passes the same Host, Origin
// and device checks as an HTTP request, every engine response gets the security headers, and a
// revoked device's open sockets are closed the moment it is revoked.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "socket.io";
import type { AccessControl } from "./access-control.ts";
import { addSecurityHeaders } from "./headers.ts";

type AllowRequest = (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void) => void;

export class SocketGuard {
  /** The device each accepted handshake belongs to (the request object lives as long as its socket). */
  private readonly devices = new WeakMap<IncomingMessage, string>();

  constructor(
    private readonly access: AccessControl,
    private readonly log: (line: string) => void,
  ) {}

  /** For socket.io's `allowRequest` option: runs on every new connection's handshake. */
  readonly allowRequest: AllowRequest = (req, callback) => {
    const verdict = this.access.checkRequest(req, true);
    if (!verdict.ok) return callback(verdict.reason, false);
    this.access.identify(req).then(
      (who) => {
        if (!who) return callback("This device is not paired with StudyLoop: open a pairing link first.", false);
        if (who.kind === "device") this.devices.set(req, who.deviceId);
        callback(null, true);
      },
      (error: unknown) => {
        this.log(`Could not check a socket handshake's device: ${String(error)}`);
        callback("StudyLoop could not check this device. Reload the page.", false);
      },
    );
  };

  /** Whether two accepted handshakes (a terminal lane's and its page's socket) come from one device. */
  readonly sameDevice = (a: IncomingMessage, b: IncomingMessage): boolean => this.devices.get(a) === this.devices.get(b);

  /** Security headers on engine responses, and disconnect-on-revoke. Returns a disposer. */
  attach(io: Server<never, never, never, unknown>): () => void {
    io.engine.use((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
      const headers: Record<string, string> = {};
      addSecurityHeaders(headers);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      next();
    });
    const onRevoked = (deviceId: string) => {
      let closed = 0;
      for (const socket of io.of("/").sockets.values()) {
        if (this.devices.get(socket.request) === deviceId) {
          socket.disconnect(true);
          closed++;
        }
      }
      if (closed > 0) this.log(`Closed ${closed} socket${closed === 1 ? "" : "s"} of a revoked device.`);
    };
    this.access.on("revoked", onRevoked);
    return () => this.access.off("revoked", onRevoked);
  }
}
