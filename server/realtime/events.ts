// The socket.io contract, shared by the server and the browser: one map per direction. Payloads are
// still validated on arrival (realtime/payloads.ts): types do not replace validation.
import type { SessionStateView, SessionView } from "../sessions/session-view.ts";

import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { DeviceKind } from "../transports/pty/resize-policy.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { StudyLiveView } from "../../common/study/study-view.ts";
import type { NoticePayload } from "../notify/kinds.ts";
import type { NotifyHello, PagePresence, ShowOptions } from "../notify/presence.ts";
import type { Digest } from "../notify/digest.ts";

/**
 * A `replay` as sent to a page that asked for packed replays (replay-wire.ts): the snapshot's UTF-8,
 * deflated raw, as a binary attachment. `chars`: the snapshot's length as a string, what the page acks.
 */
export type PackedReplayFrame = Omit<Extract<TerminalFrame, { type: "replay" }>, "type" | "data"> & {
  type: "packed-replay";
  chars: number;
  /** A Buffer when sent; an ArrayBuffer in the browser (a Buffer in Node's socket.io client). */
  bytes: Uint8Array | ArrayBuffer;
};

/**
 * An `output` chunk as sent to a page that asked for output as bytes (output-wire.ts): its UTF-8 as a
 * binary attachment. `chars`: the chunk's length as a string, what the page acks.
 */
export interface OutputBytesFrame {
  type: "output-bytes";
  seq: number;
  chars: number;
  /** A Buffer when sent; an ArrayBuffer in the browser (a Buffer in Node's socket.io client). */
  bytes: Uint8Array | ArrayBuffer;
}

/** A numbered piece of terminal output, the one replay that (re)attaching starts with, or a resize. */
export type TerminalFrameView = TerminalFrame | PackedReplayFrame | OutputBytesFrame;

export type Ack<T> = (result: { ok: true; value: T } | { ok: false; status: number; error: string; session?: SessionView }) => void;

export interface AttachRequest {
  readonly sessionId: string;
  /** Last output number this page saw: a short drop resumes from there instead of a full replay. */
  readonly sinceSeq?: number;
  /** Terminal pages: send the replay packed (a PackedReplayFrame) rather than as a string. */
  readonly packed?: boolean;
  /** Terminal pages: send live output of some size as bytes (an OutputBytesFrame) rather than as a string. */
  readonly binary?: boolean;
  /**
   * Terminal pages: attach to type only, sent no output (a reloaded page's early keys' worker,
   * common/study/early-worker.ts). The same checks as any viewer; its input, acked, as any viewer's.
   */
  readonly inputOnly?: boolean;
  /**
   * Terminal pages: this page opened a terminal lane for the session (server/realtime/terminal-lanes.ts):
   * send its frames there. Without an open lane they come on the socket, as without the flag.
   */
  readonly lane?: boolean;
}

export interface ClientToServerEvents {
  "terminal:attach": (request: AttachRequest, ack: Ack<{ session: SessionView }>) => void;
  "terminal:detach": (request: { sessionId: string }) => void;
  /**
   * What the learner typed (or pasted, or clicked); `binary`: one byte a char (xterm's onBinary). The
   * ack, if asked for, says it was written to the agent or refused (an early keys' worker waits for it).
   */
  "terminal:input": (request: { sessionId: string; data: string; binary?: boolean }, ack?: Ack<null>) => void;
  /**
   * The size that would fit this page's screen, its kind and colour scheme. It takes the terminal's
   * size only on the active device (resize-policy.ts); other pages scale the terminal to fit.
   */
  "terminal:resize": (request: { sessionId: string; cols: number; rows: number; device?: DeviceKind; dark?: boolean }) => void;
  /** "Fit to this screen": this page becomes the active device and the terminal takes its size. */
  "terminal:fit": (request: { sessionId: string }) => void;
  /**
   * This page's terminal lane closed before it ever opened (a proxy that does not pass WebSockets). The
   * server stops waiting for it and sends the terminal on the socket; `attachAgain` is true when the
   * terminal had gone down a lane the server saw open and the page did not, and the page must attach again.
   */
  "terminal:lane-failed": (request: { sessionId: string }, ack: Ack<{ attachAgain: boolean }>) => void;
  /** Characters the page's xterm has parsed: the server's flow control waits for these. */
  "terminal:ack": (request: { sessionId: string; chars: number }) => void;
  /** Chat (ACP) sessions: every stored event after sinceSeq, then each new one. */
  "acp:attach": (request: AttachRequest, ack: Ack<{ session: SessionView }>) => void;
  "acp:detach": (request: { sessionId: string }) => void;
  "acp:prompt": (request: { sessionId: string; text: string; attachments?: string[] }, ack: Ack<null>) => void;
  /** Stop: cancels the running turn; open permission questions are answered "cancelled". */
  "acp:cancel": (request: { sessionId: string }, ack: Ack<null>) => void;
  "acp:permission": (request: { sessionId: string; requestId: string; optionId: string }, ack: Ack<null>) => void;
  /** Subscribe to the live session card: the current state now, then every change. */
  "session:watch": (ack: Ack<SessionStateView>) => void;
  /** Subscribe to a session's study loop (timer, marks, parked items): the view now, then each change. */
  "study:watch": (request: { sessionId: string }, ack: Ack<StudyLiveView>) => void;
  "study:unwatch": (request: { sessionId: string }) => void;
  /** Subscribe to the parking lot: "parking:changed" whenever any item is added or changes. */
  "parking:watch": (ack: Ack<null>) => void;
  /** The server's clock (ms since the epoch): pages run the focus timer on it, not on their own. */
  "clock:sync": (ack: Ack<{ now: number }>) => void;
  /** Notifications: this page's browser, and whether it is looked at; a returning one gets the digest. */
  "notify:hello": (request: NotifyHello, ack: Ack<{ digest: Digest | null }>) => void;
  "notify:presence": (request: PagePresence, ack: Ack<{ digest: Digest | null }>) => void;
  /** The learner opened or dismissed a notice here: it is withdrawn on their other devices. */
  "notify:act": (request: { noticeId: string }) => void;
}

export interface ServerToClientEvents {
  "terminal:frame": (sessionId: string, frame: TerminalFrameView) => void;
  "terminal:error": (sessionId: string, message: string) => void;
  "acp:event": (sessionId: string, event: AcpEventRecord) => void;
  "session:ended": (sessionId: string, session: SessionView) => void;
  "session:state": (state: SessionStateView) => void;
  "study:live": (view: StudyLiveView) => void;
  "parking:changed": () => void;
  "notify:show": (notice: NoticePayload, how: ShowOptions) => void;
  /** Close the notice with this tag (acted on elsewhere, or settled). */
  "notify:withdraw": (tag: string) => void;
}

/** socket.io's slot for events between servers: there is one server. */
export type InterServerEvents = Record<never, never>;

export interface SocketData {
  /** Sessions this socket is attached to as a viewer. */
  attached: Set<string>;
  /** Sessions whose terminal frames this socket's page gets on a terminal lane. */
  viaLane: Set<string>;
}

export const SOCKET_PATH = "/socket.io";
