// Says once per grace window that a session nobody watches ends soon (the notifier listens on the
// bus). A window ends when someone watches again or a pause pushes the end further out: "grace-kept".
import type { SessionEvents } from "./session-events.ts";

export class GraceWarnings {
  private readonly warned = new Set<string>();

  constructor(private readonly events: Pick<SessionEvents, "emit">) {}

  /** endsAt: when the grace window ends, or null when the session is watched (or paused) again. */
  update(sessionId: string, endsAt: number | null): void {
    if (endsAt === null) {
      if (this.warned.delete(sessionId)) this.events.emit("grace-kept", sessionId);
      return;
    }
    if (this.warned.has(sessionId)) return;
    this.warned.add(sessionId);
    this.events.emit("grace-ending", sessionId, new Date(endsAt));
  }

  /** The session ended (or is ending): a later window starts afresh. */
  forget(sessionId: string): void {
    this.warned.delete(sessionId);
  }

  /** Forgets the sessions this server no longer runs. */
  keepOnly(isLive: (sessionId: string) => boolean): void {
    for (const id of this.warned) if (!isLive(id)) this.warned.delete(id);
  }
}
