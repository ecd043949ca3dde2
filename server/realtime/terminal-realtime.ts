// The terminal's events on a page's socket (attach, input, resize, fit, acks, detach) and its lane
// (terminal-lanes.ts), where a page that opened one gets its frames and sends its keys and acks.
// Each handler: validate, act; input from either way goes through the same checks.
import type { Server, Socket } from "socket.io";
import type { SessionView } from "../sessions/session-view.ts";
import type { Runtime } from "../runtime.ts";
import type { AttachRequest, ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from "./events.ts";
import { outputOnWire } from "./output-wire.ts";
import { TerminalOutbox } from "./terminal-outbox.ts";
import { sendWithinBudget } from "./viewer-budget.ts";
import { AckSchema, DetachSchema, FitSchema, InputSchema, LaneFailedSchema, ResizeSchema } from "./payloads.ts";
import { TerminalLanes, type LaneGate } from "./terminal-lanes.ts";

type IO = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type StudySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Attaching = { view: Promise<SessionView>; acked?: () => void; failed?: () => void };
/** socket-server.ts's one attach path: validate, join the session's room, attach, ack. */
export type AttachWith = (attachViewer: (request: AttachRequest) => Attaching) => ClientToServerEvents["terminal:attach"];

export const NOT_ATTACHED_TERMINAL = {
  ok: false as const,
  status: 409,
  error: "This terminal is not attached to a live session: reload the page to see the session's state.",
};

export interface TerminalRealtime {
  readonly lanes: TerminalLanes;
  /** Registers the terminal's events on a newly connected socket. */
  connect(socket: StudySocket, attachWith: AttachWith): void;
  close(): void;
}

/** `detach`: socket-server.ts's, which also leaves the session's room. */
export function terminalRealtime(
  io: IO,
  runtime: Runtime,
  log: (line: string) => void,
  gate: LaneGate,
  detach: (socket: StudySocket, sessionId: string) => void,
): TerminalRealtime {
  const sessions = runtime.sessions;
  const socketOf = (socketId: string): StudySocket | undefined => io.of("/").sockets.get(socketId);

  /** What the learner typed, validated (by the socket's schema or the lane's codec); false when not attached. */
  const type = (socket: StudySocket, sessionId: string, data: string, binary: boolean | undefined): boolean => {
    const terminal = sessions.viewer(sessionId, socket.id);
    if (!terminal) {
      socket.emit("terminal:error", sessionId, NOT_ATTACHED_TERMINAL.error);
      return false;
    }
    terminal.input(socket.id, data, { binary });
    return true;
  };
  const ack = (socket: StudySocket, payload: unknown) => {
    const parsed = AckSchema.safeParse(payload);
    if (parsed.success) sessions.viewer(parsed.data.sessionId, socket.id)?.ack(socket.id, parsed.data.chars);
  };

  const lanes = new TerminalLanes(
    {
      socketRequest: (socketId) => socketOf(socketId)?.request,
      // The lane's messages are read by its codec (lengths and numbers checked there, the session id
      // at the upgrade): a keystroke skips the socket's schemas.
      input: (socketId, sessionId, data, binary) => {
        const socket = socketOf(socketId);
        if (socket) type(socket, sessionId, data, binary);
      },
      ack: (socketId, sessionId, chars) => sessions.viewer(sessionId, socketId)?.ack(socketId, chars),
      // A terminal sent on the lane has nowhere to go without it: it is let go, and the page,
      // opening a lane again, attaches again from the last output it saw.
      closed: (socketId, sessionId) => {
        const socket = socketOf(socketId);
        if (socket?.data.viaLane.delete(sessionId)) detach(socket, sessionId);
      },
    },
    gate,
    log,
  );

  const connect: TerminalRealtime["connect"] = (socket, attachWith) => {
    socket.data.viaLane = new Set();

    socket.on(
      "terminal:attach",
      attachWith(({ sessionId, sinceSeq, packed, binary, inputOnly, lane }) => {
        // A page's early keys' worker types before the page's own attach: it is sent nothing.
        if (inputOnly) return { view: sessions.attachInputViewer(sessionId, socket.id) };
        // Frames go on the page's lane when it opens one for this terminal (beside this request), else
        // on the socket; which is decided once, before the first frame is sent, so they keep their order.
        let onLane = false;
        socket.data.viaLane.delete(sessionId);
        // Output is encoded for its way when it is sent: on the lane as its UTF-8 (lane-frames.ts), on the
        // socket a large chunk as bytes to a page that asked for them (output-wire.ts).
        const outbox = new TerminalOutbox(
          (frame) => {
            if (onLane) lanes.send(socket.id, sessionId, frame);
            else {
              const wire = binary === true && frame.type === "output" ? outputOnWire(frame) : frame;
              sendWithinBudget(socket, () => socket.emit("terminal:frame", sessionId, wire), log);
            }
          },
          { packReplays: packed === true, log },
        );
        return {
          view: sessions.attachViewer(sessionId, socket.id, outbox.push, sinceSeq),
          // The ack goes out before the replay (terminal-outbox.ts): the page is live as soon as it is attached.
          acked: () => {
            if (lane !== true) return outbox.release();
            void lanes.whenOpen(socket.id, sessionId).then((open) => {
              onLane = open && socket.connected;
              if (onLane) socket.data.viaLane.add(sessionId);
              outbox.release();
            });
          },
          failed: () => outbox.close(),
        };
      }),
    );

    socket.on("terminal:detach", (payload) => {
      const parsed = DetachSchema.safeParse(payload);
      if (!parsed.success) return;
      socket.data.viaLane.delete(parsed.data.sessionId);
      detach(socket, parsed.data.sessionId);
    });

    socket.on("terminal:input", (payload, reply) => {
      const parsed = InputSchema.safeParse(payload);
      const typed = parsed.success && type(socket, parsed.data.sessionId, parsed.data.data, parsed.data.binary);
      if (typeof reply !== "function") return;
      if (typed) reply({ ok: true, value: null });
      else reply(parsed.success ? NOT_ATTACHED_TERMINAL : { ok: false, status: 400, error: "This input is not valid." });
    });

    socket.on("terminal:resize", (payload) => {
      const parsed = ResizeSchema.safeParse(payload);
      if (!parsed.success) return;
      const terminal = sessions.viewer(parsed.data.sessionId, socket.id);
      if (!terminal) return void socket.emit("terminal:error", parsed.data.sessionId, NOT_ATTACHED_TERMINAL.error);
      const { cols, rows, device, dark } = parsed.data;
      terminal.resize(socket.id, { cols, rows, device, dark });
    });

    socket.on("terminal:fit", (payload) => {
      const parsed = FitSchema.safeParse(payload);
      if (!parsed.success) return;
      const terminal = sessions.viewer(parsed.data.sessionId, socket.id);
      if (!terminal) return void socket.emit("terminal:error", parsed.data.sessionId, NOT_ATTACHED_TERMINAL.error);
      terminal.fit(socket.id);
    });

    socket.on("terminal:ack", (payload) => ack(socket, payload));

    // The page's lane never opened: its terminal comes on the socket from here on. Attaching again is
    // needed only if the terminal was let go, which it is when it had gone down a lane only this end saw.
    socket.on("terminal:lane-failed", (payload, reply) => {
      if (typeof reply !== "function") return;
      const parsed = LaneFailedSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, status: 400, error: "This request is not valid." });
      const { sessionId } = parsed.data;
      lanes.neverOpened(socket.id, sessionId);
      reply({ ok: true, value: { attachAgain: sessions.viewer(sessionId, socket.id) === undefined } });
    });
    socket.on("disconnect", () => lanes.closeSocket(socket.id));
  };

  return { lanes, connect, close: () => lanes.close() };
}
