// Notifications over socket.io: each page says hello (its browser's id and whether it is looked
// at), reports visibility and focus as they change, and says when the learner acted on a notice.
// The notifier answers a returning page with the "While you were away" digest and shows notices.
import type { Server, Socket } from "socket.io";
import type { Notifier } from "../notify/notifier.ts";
import type { AccessControl } from "../security/access-control.ts";
import { NotifyActSchema, NotifyHelloSchema, PagePresenceSchema } from "../notify/presence.ts";
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from "./events.ts";

type IO = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type NotifySocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const FAILED = {
  ok: false as const,
  status: 500,
  error: "StudyLoop could not set up notifications for this page. Reload it; if it keeps happening, see the server's log.",
};

export function attachNotifyRealtime(io: IO, notifier: Notifier, access: AccessControl, log: (line: string) => void): () => void {
  notifier.attachPages({
    show: (socketId, notice, how) => io.to(socketId).emit("notify:show", notice, how),
    withdraw: (socketId, tag) => io.to(socketId).emit("notify:withdraw", tag),
  });
  /** Socket id -> the browser it belongs to (set by hello). */
  const clients = new Map<string, string>();

  const onConnection = (socket: NotifySocket) => {
    // A page's hello and presence reports are handled one after another, in the order sent: a page
    // hidden while its hello was still being stored would otherwise be dropped, and count as looked at.
    let pending: Promise<unknown> = Promise.resolve();
    const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
      const next = pending.then(work, work);
      pending = next.catch(() => undefined);
      return next;
    };
    socket.on("notify:hello", async (payload, ack) => {
      if (typeof ack !== "function") return;
      const parsed = NotifyHelloSchema.safeParse(payload);
      if (!parsed.success) return ack({ ok: false, status: 400, error: "This page's notification hello is not valid: reload the page." });
      try {
        const welcome = await inOrder(async () => {
          // Bound to the paired device asking, when pairing is required: revoking it removes the row.
          const device = access.requirePairing ? await access.deviceOf(socket.request) : undefined;
          clients.set(socket.id, parsed.data.clientId);
          return notifier.hello(socket.id, { ...parsed.data, deviceId: device?.id ?? null });
        });
        ack({ ok: true, value: welcome });
      } catch (error) {
        log(`Notification hello failed: ${String(error)}`);
        ack(FAILED);
      }
    });

    socket.on("notify:presence", async (payload, ack) => {
      const parsed = PagePresenceSchema.safeParse(payload);
      const reply = typeof ack === "function" ? ack : () => undefined;
      if (!parsed.success) return reply({ ok: false, status: 400, error: "This presence report is not valid." });
      try {
        reply({ ok: true, value: await inOrder(() => notifier.presence(socket.id, parsed.data)) });
      } catch (error) {
        log(`Notification presence failed: ${String(error)}`);
        reply(FAILED);
      }
    });

    socket.on("notify:act", (payload) => {
      const parsed = NotifyActSchema.safeParse(payload);
      if (!parsed.success) return;
      void notifier
        .act(parsed.data.noticeId, clients.get(socket.id) ?? null)
        .catch((error: unknown) => log(`Could not withdraw a notice: ${String(error)}`));
    });

    socket.on("disconnect", () => {
      clients.delete(socket.id);
      notifier.leave(socket.id);
    });
  };
  io.on("connection", onConnection);
  return () => {
    io.off("connection", onConnection);
    notifier.attachPages(undefined);
  };
}
