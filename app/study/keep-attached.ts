"use client";
// The attachment lifecycle both live views share (terminal and chat): attach on every (re)connect,
// show the connection's status, and hand over to the ended explanation when the session ends. The
// server may let a view go (the terminal's "detached" frame): it is attached once more, and if that
// is let go too before anything was restored, the view says so instead of looking live.
import type { SessionView } from "@/server/sessions/session-view";
import type { Ack } from "@/server/realtime/events";
import type { StudySocket } from "../components/socket";

export type AttachStatus = "connecting" | "live" | "reconnecting" | "ended" | "error";
type AttachResult = Parameters<Ack<{ session: SessionView }>>[0];

/** The socket events an attachment listens to: a page's socket, or a test's stand-in. */
export type AttachSocket = Pick<StudySocket, "on" | "off" | "connected">;

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
  /** Attaches again now (the view's own way in dropped, e.g. the terminal's lane). */
  readonly reattach: () => void;
  /**
   * The server let this view go (a "detached" frame): attached once more, and if that is let go too
   * before `restored`, `message` is shown. The frame may come before its attach's ack (the terminal's
   * lane is a connection of its own): that attach then counts as let go when its ack arrives.
   */
  readonly detached: (message: string) => void;
  /** What the server sent was restored: a later detach is tried again before it is shown. */
  readonly restored: () => void;
}

/** Wires the listeners and attaches now if connected. */
export function keepAttached(socket: AttachSocket, o: KeepAttachedOptions): Attachment {
  let disposed = false;
  /** An attach is waiting for its ack. */
  let inFlight = false;
  /** The server let go the attach in flight: its ack, when it comes, is not a live view. */
  let letGoInFlight: string | null = null;
  /** Attached again after a detach, and nothing restored since. */
  let retried = false;

  const attach = () => {
    inFlight = true;
    letGoInFlight = null;
    o.setStatus((s) => (s === "connecting" ? s : "reconnecting"));
    o.request((result) => {
      if (disposed) return;
      inFlight = false;
      if (result.ok && letGoInFlight !== null) {
        const message = letGoInFlight;
        letGoInFlight = null;
        letGo(message);
      } else if (result.ok) {
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
  const letGo = (message: string) => {
    if (retried) {
      o.setStatus(() => "error");
      o.setError(message);
    } else {
      retried = true;
      reattach();
    }
  };
  const reattach = () => {
    if (!disposed && socket.connected) attach();
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
    reattach,
    detached: (message) => {
      if (disposed) return;
      if (inFlight) letGoInFlight = message;
      else letGo(message);
    },
    restored: () => {
      retried = false;
    },
  };
}
