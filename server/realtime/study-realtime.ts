// The study loop over socket.io: every page watching a session gets its timer, marks and parked
// items again whenever they change (on this server's change events, and on a short poll for
// changes written by another server), and parking-lot pages are told when to read the lot again.
// Each handler: validate, act, ack; pushes are deduplicated so an unchanged view is not re-sent.
import type { Server, Socket } from "socket.io";
import type { Runtime } from "../runtime.ts";
import { toApiError } from "../api/api-error.ts";
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from "./events.ts";
import { StudyWatchSchema } from "./payloads.ts";

type IO = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type StudySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const PARKING_ROOM = "parking-watchers";
/** Watched views are re-read this often even without a local change (another server may write). */
const STUDY_POLL_MS = 2_000;

export interface StudyRealtime {
  close(): Promise<void>;
}

export function attachStudyRealtime(io: IO, runtime: Runtime, log: (line: string) => void): StudyRealtime {
  const { sessions, study } = runtime;
  /** Watched session id -> the JSON last pushed to its room. */
  const watched = new Map<string, string>();

  const pushStudy = async () => {
    for (const [sessionId, last] of watched) {
      if (!io.sockets.adapter.rooms.get(studyRoom(sessionId))?.size) {
        watched.delete(sessionId);
        continue;
      }
      const view = await study.liveView(sessionId);
      if (!view) continue;
      const text = JSON.stringify(view);
      if (text === last) continue;
      watched.set(sessionId, text);
      io.to(studyRoom(sessionId)).emit("study:live", view);
    }
  };
  let pushing: Promise<void> = Promise.resolve();
  const schedule = () => {
    pushing = pushing.then(pushStudy).catch((e: unknown) => log(`Could not push the study loop: ${String(e)}`));
  };
  const onChanged = () => {
    schedule();
    if (io.sockets.adapter.rooms.get(PARKING_ROOM)?.size) io.to(PARKING_ROOM).emit("parking:changed");
  };
  sessions.on("changed", onChanged);
  const poll = setInterval(() => {
    if (watched.size > 0) schedule();
  }, STUDY_POLL_MS);
  poll.unref();

  io.on("connection", (socket: StudySocket) => {
    socket.on("study:watch", async (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = StudyWatchSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, status: 400, error: "This watch request is not valid." });
      const { sessionId } = parsed.data;
      try {
        const view = await study.liveView(sessionId);
        if (!view) return ack({ ok: false, status: 404, error: `There is no session ${sessionId}.` });
        await socket.join(studyRoom(sessionId));
        if (!watched.has(sessionId)) watched.set(sessionId, JSON.stringify(view));
        ack({ ok: true, value: view });
      } catch (error) {
        ack(failure(error, log));
      }
    });

    socket.on("study:unwatch", (payload) => {
      const parsed = StudyWatchSchema.safeParse(payload);
      if (parsed.success) void socket.leave(studyRoom(parsed.data.sessionId));
    });

    socket.on("parking:watch", async (ack) => {
      if (typeof ack !== "function") return;
      await socket.join(PARKING_ROOM);
      ack({ ok: true, value: null });
    });

    socket.on("clock:sync", (ack) => {
      if (typeof ack === "function") ack({ ok: true, value: { now: Date.now() } });
    });
  });

  return {
    close: async () => {
      clearInterval(poll);
      sessions.off("changed", onChanged);
      await pushing;
    },
  };
}

function studyRoom(sessionId: string): string {
  return `study:${sessionId}`;
}

function failure(error: unknown, log: (line: string) => void) {
  const refusal = toApiError(error);
  if (refusal) return { ok: false as const, status: refusal.status, error: refusal.message };
  log(`Study socket request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return {
    ok: false as const,
    status: 500,
    error: "Something went wrong on the StudyLoop server. Reload the page; if it keeps happening, see the server's log.",
  };
}
