"use client";
// The page's end of its terminal lane (server/realtime/terminal-lanes.ts): a plain WebSocket for this
// terminal's output, keys and acks, paired with the page's socket.io connection. Opened beside each
// attach request; when it cannot open (a proxy without WebSockets), the terminal travels on socket.io
// as before, and the next attach tries again (up to a few failures in a row).
import type { TerminalFrameView } from "@/server/realtime/events";
import { decodeLaneFrame, encodeLaneMessage, LaneClose, laneUrl } from "@/common/terminal/lane-codec";
import type { StudySocket } from "../components/socket";

export const LaneTiming = {
  /** How long the page waits for its lane to open before its keys go on socket.io instead (ms). */
  OPEN_TIMEOUT_MS: 2_000,
  /**
   * How long a page waits after its lane dropped before it attaches again (ms): when the whole link
   * dropped, socket.io notices in the meantime and its reconnect attaches instead.
   */
  LOST_WAIT_MS: 100,
  /**
   * Lanes that failed in a row after which this terminal stops asking for one: a proxy without
   * WebSockets (they never open), or one that closes them at once (each would cost a reattach).
   */
  MAX_FAILED_OPENS: 3,
  /** A lane that closes sooner than this after opening (ms) counts as failed, not as a dropped link. */
  SHORT_LIVED_MS: 10_000,
} as const;

/**
 * How an attempt to open the lane ended: open; closed before it ever opened (refused on the way, as by
 * a proxy that does not pass WebSockets: the page asks the server whether its terminal went down it);
 * or not open within OPEN_TIMEOUT_MS (the server sends on the socket by then).
 */
export type LaneOutcome = "open" | "never-opened" | "gave-up";

export interface LaneHandlers {
  frame(frame: TerminalFrameView): void;
  /**
   * The lane the terminal was sent on closed (or was closed late, below): the server has let the
   * terminal go, so keys must wait for the next attach. Called at once; `lost` follows.
   */
  dropped(): void;
  /** An open lane closed while its page's socket stayed: its terminal must be attached again. */
  lost(): void;
}

export class TerminalLane {
  private ws: WebSocket | null = null;
  private socketId: string | null = null;
  private closed = false;
  private failedOpens = 0;

  constructor(
    private readonly sessionId: string,
    private readonly handlers: LaneHandlers,
  ) {}

  /** Whether to ask for a lane at all: not after several failed to open in a row. */
  worthTrying(): boolean {
    return !this.closed && this.failedOpens < LaneTiming.MAX_FAILED_OPENS;
  }

  /** Opens the lane for this socket.io connection (or keeps the open one): how that ended. */
  open(socketId: string): Promise<LaneOutcome> {
    return this.opening(socketId).then((outcome) => {
      // An open lane counts as working only once it has stayed open a while (see the close handler).
      if (outcome !== "open") this.failedOpens++;
      return outcome;
    });
  }

  private opening(socketId: string): Promise<LaneOutcome> {
    if (this.closed) return Promise.resolve("gave-up");
    if (this.ws?.readyState === WebSocket.OPEN && this.socketId === socketId) return Promise.resolve("open");
    this.drop();
    const ws = new WebSocket(laneUrl(window.location.origin, socketId, this.sessionId));
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.socketId = socketId;
    return new Promise<LaneOutcome>((resolve) => {
      /** Given up on before it opened: its keys go on the socket, and it is closed if it opens late. */
      let abandoned = false;
      const timer = setTimeout(() => {
        if (ws.readyState === WebSocket.OPEN) return;
        abandoned = true;
        if (this.ws === ws) this.ws = null;
        resolve("gave-up");
      }, LaneTiming.OPEN_TIMEOUT_MS);
      let opened = false;
      /** Set once the lane has stayed open SHORT_LIVED_MS: it works, and the failures in a row are over. */
      let proven = false;
      let proving: ReturnType<typeof setTimeout> | undefined;
      ws.onopen = () => {
        clearTimeout(timer);
        if (abandoned) {
          // The server may have taken it as open in time and sent the attach's replay on it (a page too
          // busy to see it open within OPEN_TIMEOUT_MS): attach again, or the terminal stays blank.
          ws.close(1000);
          this.lost();
          return;
        }
        opened = true;
        proving = setTimeout(() => {
          proven = true;
          if (this.ws === ws) this.failedOpens = 0;
        }, LaneTiming.SHORT_LIVED_MS);
        resolve(this.ws === ws ? "open" : "gave-up");
      };
      ws.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
        const frame = decodeLaneFrame(event.data);
        if (frame && this.ws === ws) this.handlers.frame(frame);
      };
      ws.onclose = (event) => {
        clearTimeout(timer);
        const current = this.ws === ws;
        if (current) this.ws = null;
        // Settles only an attempt still waiting (then, never opened); once open it has settled already.
        resolve(current ? "never-opened" : "gave-up");
        clearTimeout(proving);
        const linkLeft = event.code === LaneClose.SOCKET_LEFT || event.code === LaneClose.REPLACED;
        // Dropped before it proved itself, and not with its page's socket: one failure more, so a proxy
        // that accepts lanes and closes them at once costs a few reattaches, not one every LOST_WAIT_MS.
        if (current && opened && !proven && !linkLeft) this.failedOpens++;
        // An open lane of an attach that closes lets the page attach again. One that never opened is
        // settled by the attach's own outcome ("never-opened": the server says whether the terminal went
        // down it). Closed because the page's socket left: its reconnect attaches again anyway.
        if (current && opened && !this.closed && !linkLeft) this.lost();
      };
      // An error is followed by a close, which decides.
      ws.onerror = () => undefined;
    });
  }

  /** Sends keys on the lane; false when it is not open (the caller sends them on the socket). */
  input(data: string, binary: boolean): boolean {
    return this.send(encodeLaneMessage({ kind: "input", data, binary }));
  }

  /** Acknowledges chars parsed; false when the lane is not open. */
  ack(chars: number): boolean {
    return this.send(encodeLaneMessage({ kind: "ack", chars }));
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private send(message: string): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(message);
    return true;
  }

  /**
   * The lane the terminal used is gone: the page holds keys and sizes at once, and attaches again after
   * LOST_WAIT_MS (unless closed by then): when the whole link dropped, socket.io's reconnect does it first.
   */
  private lost(): void {
    this.handlers.dropped();
    setTimeout(() => {
      if (!this.closed) this.handlers.lost();
    }, LaneTiming.LOST_WAIT_MS);
  }

  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    if (!ws) return;
    // Closing one still connecting makes Chromium log an error: it closes as soon as it opens.
    if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close(1000);
    else if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  }
}

/**
 * An attach's lane never opened: asks the server whether the terminal must be attached again, which
 * only the server knows (it went down a lane only that end saw open). No answer in OPEN_TIMEOUT_MS:
 * attach again, to be safe.
 */
export function attachAgainAfterLane(socket: StudySocket, sessionId: string): Promise<boolean> {
  return new Promise((resolve) =>
    socket
      .timeout(LaneTiming.OPEN_TIMEOUT_MS)
      .emit("terminal:lane-failed", { sessionId }, (error: Error | null, result?: { ok: boolean; value?: { attachAgain: boolean } }) =>
        resolve(error !== null || result?.ok !== true || result.value?.attachAgain !== false),
      ),
  );
}
