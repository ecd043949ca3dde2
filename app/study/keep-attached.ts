"use client";
// The attachment lifecycle both live views share (terminal and chat): attach on every (re)connect,
// show the connection's status, and hand over to the ended explanation when the session ends.
import type { SessionView } from "@/server/sessions/session-view";
import type { Ack } from "@/server/realtime/events";
import type { StudySocket } from "../components/socket";

export type AttachStatus = "connecting" | "live" | "reconnecting" | "ended" | "error";
type AttachResult = Parameters<Ack<{ session: SessionView }>>[0];

export interface KeepAttachedOptions {
  readonly sessionId: string;
  /** Emits this view's attach event with the ack given (and whatever resume point it keeps). */
  readonly request: (ack: (result: AttachResult) => void) => void;
  readonly onAttached?: () => void;
  readonly setStatus: (update: (status: AttachStatus) => AttachStatus) => void;
  readonly setError: (message: string | null) => void;
  readonly onEnded: (view: SessionView) => void;
}

export interface Attachment {
  /** Lets go of the listeners. */
  readonly release: () => void;
  /** Attaches again now (the server let this view go: a "detached" frame). */
  readonly reattach: () => void;
}

/** Wires the listeners and attaches now if connected. */
export function keepAttached(socket: StudySocket, o: KeepAttachedOptions): Attachment {
  let disposed = false;
  const attach = () => {
    o.setStatus((s) => (s === "connecting" ? s : "reconnecting"));
    o.request((result) => {
      if (disposed) return;
      if (result.ok) {
        o.setStatus(() => "live");
        o.setError(null);
        o.onAttached?.();
      } else if (result.session?.status === "ended") {
        o.setStatus(() => "ended");
        o.onEnded(result.session);
      } else {
        o.setStatus(() => "error");
        o.setError(result.error);
      }
    });
  };
  const onEndedEvent = (sessionId: string, view: SessionView) => {
    if (sessionId !== o.sessionId || disposed) return;
    o.setStatus(() => "ended");
    o.onEnded(view);
  };
  const onDisconnect = () => o.setStatus(() => "reconnecting");
  socket.on("session:ended", onEndedEvent);
  socket.on("connect", attach);
  socket.on("disconnect", onDisconnect);
  if (socket.connected) attach();
  return {
    release: () => {
      disposed = true;
      socket.off("session:ended", onEndedEvent);
      socket.off("connect", attach);
      socket.off("disconnect", onDisconnect);
    },
    reattach: () => {
      if (!disposed && socket.connected) attach();
    },
  };
}
