// socket.io beside Next on the same http server: terminal viewers and the live session card.
// Each handler: validate, act, ack, broadcast. Subscriptions are released when a socket leaves.
import type http from "node:http";
import type https from "node:https";
import type { Duplex } from "node:stream";
import { Server, type ServerOptions, type Socket } from "socket.io";
import { socketParser } from "../../common/realtime/socket-parser.ts";
import type { Runtime } from "../runtime.ts";
import { toApiError } from "../api/api-error.ts";
import type { SessionStateView } from "../sessions/session-view.ts";
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from "./events.ts";
import { SOCKET_PATH } from "./events.ts";
import { hangUp } from "./hang-up.ts";
import { socketLimits } from "./socket-limits.ts";
import { attachStudyRealtime } from "./study-realtime.ts";
import { AttachSchema, DetachSchema, PermissionSchema, PromptSchema } from "./payloads.ts";
import { terminalRealtime, type AttachWith } from "./terminal-realtime.ts";
import type { LaneGate } from "./terminal-lanes.ts";

type IO = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type StudySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const WATCH_ROOM = "session-watchers";
/** How often watchers' state is re-read even without a local change: another server may have died. */
const WATCH_POLL_MS = 2_000;

export interface Realtime {
  readonly io: IO;
  close(): Promise<void>;
}

/**
 * `gate.allowRequest` checks each handshake's Origin and device, a socket.io one or a terminal lane's
 * (server/security/socket-guard.ts); `gate.sameDevice` pairs a lane with its page's socket.
 */
export function attachRealtime(
  server: http.Server | https.Server,
  runtime: Runtime,
  log: (line: string) => void,
  gate: LaneGate & { allowRequest?: ServerOptions["allowRequest"] } = {},
): Realtime {
  const limits = socketLimits(log, gate.allowRequest);
  const io: IO = new Server(server, {
    path: SOCKET_PATH,
    serveClient: false,
    // A packet with bytes (output, a packed replay) as one WebSocket message; text packets as socket.io's.
    parser: socketParser,
    maxHttpBufferSize: 256 * 1024,
    // Next's dev server shares the upgrade event; leave foreign upgrades alone.
    destroyUpgrade: false,
    connectionStateRecovery: undefined,
    allowRequest: limits.allowRequest,
  });
  limits.watch(io);
  const sessions = runtime.sessions;
  // The study loop's own events (timer, marks, parked items, the parking lot, the clock).
  const studyLoop = attachStudyRealtime(io, runtime, log);
  // The terminal's events, and its lanes beside socket.io on the same http server.
  const terminal = terminalRealtime(io, runtime, log, gate, (socket, sessionId) => detach(socket, sessionId));
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void terminal.lanes.handleUpgrade(req, socket, head);
  server.on("upgrade", onUpgrade);

  // The live card: one reader (the same as GET /api/session/state), pushed on change and on a poll.
  let lastPushed = "";
  const pushState = async () => {
    if (io.sockets.adapter.rooms.get(WATCH_ROOM)?.size) {
      const state = await sessions.state();
      const text = JSON.stringify(state);
      if (text !== lastPushed) {
        lastPushed = text;
        io.to(WATCH_ROOM).emit("session:state", state);
      }
    }
  };
  let pushing: Promise<void> = Promise.resolve();
  const schedulePush = () => {
    pushing = pushing.then(pushState).catch((e: unknown) => log(`Could not push the session state: ${String(e)}`));
  };
  sessions.on("changed", schedulePush);
  sessions.on("ended", (sessionId, view) => {
    io.to(room(sessionId)).emit("session:ended", sessionId, view);
    void io.in(room(sessionId)).socketsLeave(room(sessionId));
  });
  const poll = setInterval(schedulePush, WATCH_POLL_MS);
  poll.unref();

  io.on("connection", (socket: StudySocket) => {
    socket.data.attached = new Set();
    limits.budgetEvents(socket);

    socket.on("session:watch", async (ack) => {
      if (typeof ack !== "function") return;
      try {
        const state: SessionStateView = await sessions.state();
        await socket.join(WATCH_ROOM);
        ack({ ok: true, value: state });
      } catch (error) {
        ack(failure(error, log));
      }
    });

    /**
     * One attach path for both views: validate, join the session's room, attach, ack. `attachViewer`
     * registers the viewer before its first await: input the page sent right behind its attach request
     * arrives in the same tick and must find it attached, so nothing is awaited before calling it.
     */
    const attachWith: AttachWith = (attachViewer) => async (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = AttachSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, status: 400, error: "This attach request is not valid." });
      const { sessionId } = parsed.data;
      let attaching: ReturnType<typeof attachViewer> | undefined;
      try {
        // Joined first (at once with the in-memory adapter): an `ended` broadcast during the replay
        // must reach this viewer too.
        const joined = socket.join(room(sessionId));
        socket.data.attached.add(sessionId);
        attaching = attachViewer(parsed.data);
        await joined;
        ack({ ok: true, value: { session: await attaching.view } });
        attaching.acked?.();
      } catch (error) {
        attaching?.failed?.();
        socket.data.attached.delete(sessionId);
        await socket.leave(room(sessionId));
        ack(failure(error, log));
      }
    };

    terminal.connect(socket, attachWith);
    socket.on(
      "acp:attach",
      attachWith(({ sessionId, sinceSeq }) => ({
        view: sessions.attachAcpViewer(sessionId, socket.id, (event) => socket.emit("acp:event", sessionId, event), sinceSeq ?? 0),
      })),
    );

    socket.on("acp:detach", (payload) => {
      const parsed = DetachSchema.safeParse(payload);
      if (parsed.success) detach(socket, parsed.data.sessionId);
    });

    socket.on("acp:prompt", (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = PromptSchema.safeParse(payload);
      if (!parsed.success) {
        // A control character gets its own sentence (safe-text.ts); anything else is the shape rule.
        const control = parsed.error.issues.find((i) => i.code === "custom");
        return ack({
          ok: false,
          status: 400,
          error: control?.message ?? "Write a message first (at most 16,000 characters, 4 attachments).",
        });
      }
      const chat = sessions.chat(parsed.data.sessionId, socket.id);
      if (!chat) return ack(NOT_ATTACHED);
      try {
        chat.prompt(parsed.data.text, parsed.data.attachments);
        ack({ ok: true, value: null });
      } catch (error) {
        ack({ ok: false, status: 409, error: error instanceof Error ? error.message : String(error) });
      }
    });

    socket.on("acp:cancel", (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = DetachSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, status: 400, error: "This request is not valid." });
      const chat = sessions.chat(parsed.data.sessionId, socket.id);
      if (!chat) return ack(NOT_ATTACHED);
      chat.cancel();
      ack({ ok: true, value: null });
    });

    socket.on("acp:permission", (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = PermissionSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, status: 400, error: "This answer is not valid." });
      const chat = sessions.chat(parsed.data.sessionId, socket.id);
      if (!chat) return ack(NOT_ATTACHED);
      if (!chat.answerPermission(parsed.data.requestId, parsed.data.optionId)) {
        return ack({ ok: false, status: 409, error: "This permission question is no longer open: the tutor has moved on." });
      }
      ack({ ok: true, value: null });
    });

    socket.on("disconnect", () => {
      for (const sessionId of socket.data.attached) sessions.detachViewer(sessionId, socket.id);
      socket.data.attached.clear();
    });
  });

  function detach(socket: StudySocket, sessionId: string) {
    if (!socket.data.attached.delete(sessionId)) return;
    sessions.detachViewer(sessionId, socket.id);
    void socket.leave(room(sessionId));
  }

  return {
    io,
    close: async () => {
      clearInterval(poll);
      sessions.off("changed", schedulePush);
      await pushing;
      await studyLoop.close();
      // Not io.close(): that also closes the http server, which the custom server owns.
      await hangUp(io);
      // After the pages were told: a lane closed first would have its page attach again.
      server.off("upgrade", onUpgrade);
      terminal.close();
    },
  };
}

const NOT_ATTACHED = {
  ok: false as const,
  status: 409,
  error: "This page is not attached to a live chat session: reload the page to see the session's state.",
};

function room(sessionId: string): string {
  return `session:${sessionId}`;
}

function failure(error: unknown, log: (line: string) => void) {
  const refusal = toApiError(error);
  if (refusal) {
    const session = (refusal.extra.session ?? undefined) as never;
    return { ok: false as const, status: refusal.status, error: refusal.message, ...(session ? { session } : {}) };
  }
  log(`Socket request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return {
    ok: false as const,
    status: 500,
    error: "Something went wrong on the StudyLoop server. Reload the page; if it keeps happening, see the server's log.",
  };
}
