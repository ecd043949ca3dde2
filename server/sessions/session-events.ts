// The one event bus of sessions and the study loop. The custom server creates it and hands it to
// both, so neither imports the other: sessions say a session changed or ended; the study loop says
// what the learner did (parked, marked, paused, resumed) and when a break came due. Realtime pushes,
// the keeper's pause rule and a recorder subscribe here.
import { EventEmitter } from "node:events";
import type { SessionView } from "./session-view.ts";
import type { TerminalSession } from "../transports/pty/terminal-session.ts";
import type { LiveTransport } from "../transports/live-transport.ts";

export type StudyEventKind = "parked" | "marked" | "paused" | "resumed" | "break-due" | "break-over" | "ended";

/** A study event: what happened in a session, when, and a small payload (the note, the mark). */
export interface StudyEvent {
  readonly kind: StudyEventKind;
  readonly sessionId: string;
  readonly at: Date;
  readonly detail?: Record<string, unknown>;
}

export interface SessionEventMap {
  /** Something any page might show changed: pages re-read what they watch. */
  changed: [];
  /** A session ended (the row is written): its final view. */
  ended: [sessionId: string, view: SessionView];
  study: [event: StudyEvent];
  /** A pty or acp session's agent has started here (a recorder taps its terminal from now on). */
  launched: [sessionId: string, dir: string, terminal: TerminalSession | null, startedAt: Date];
  /**
   * A session nobody watches will end at `endsAt` (grace running out, STUDYLOOP_GRACE_WARNING_SECONDS
   * ahead): said once per grace window by the keeper; the notifier tells the learner.
   */
  "grace-ending": [sessionId: string, endsAt: Date];
  /** A session said to be ending is kept after all (watched again, or a pause moved its end out). */
  "grace-kept": [sessionId: string];
  /** An agent started in this server (notification sources watch its output: server/notify/sources.ts). */
  "agent-launched": [sessionId: string, agent: string, transport: LiveTransport];
}

export class SessionEvents extends EventEmitter<SessionEventMap> {
  /** Count of "changed" events: a shared read started before the latest change is not reused. */
  private changes = 0;

  constructor() {
    super();
    // Many sockets and pages listen; the default of 10 would warn about a leak that is not one.
    this.setMaxListeners(0);
    this.on("changed", () => this.changes++);
  }

  get changeCount(): number {
    return this.changes;
  }

  /** A study event, and the "changed" every page listens for. "ended" comes from the lifecycle too. */
  study(kind: StudyEventKind, sessionId: string, detail?: Record<string, unknown>, at: Date = new Date()): void {
    this.emit("study", { kind, sessionId, at, ...(detail ? { detail } : {}) });
    this.emit("changed");
  }

  /** A session's row was ended: its final view to its pages, the study event, and "changed". */
  sessionEnded(sessionId: string, view: SessionView): void {
    this.emit("ended", sessionId, view);
    this.emit("study", {
      kind: "ended",
      sessionId,
      at: view.endedAt ? new Date(view.endedAt) : new Date(),
      detail: { reason: view.endReason },
    });
    this.emit("changed");
  }

  /** A subscription that returns its own undo (for a socket or a recorder that stops). */
  subscribe<K extends keyof SessionEventMap>(event: K, listener: (...args: SessionEventMap[K]) => void): () => void {
    this.on(event, listener as never);
    return () => this.off(event, listener as never);
  }
}
