// What the learner (and the agent) write down during a session: parked thoughts and topic marks.
// Each is written to the database the moment it is created (invariant 4), never only at the end.
import crypto from "node:crypto";
import type { Db } from "../db/client.ts";
import type { ParkedItem, TopicMark } from "../db/generated/client.ts";
import { ApiError } from "../api/api-error.ts";
import type { SessionService } from "../sessions/session-service.ts";

export type Source = "learner" | "agent";

export class StudyLog {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
  ) {}

  /** Parks a thought into the open session (or unattached when none is open and `loose` is set). */
  async park(text: string, source: Source, sessionId?: string): Promise<ParkedItem> {
    const target = sessionId ?? (await this.openSessionId());
    if (!target) throw new ApiError(409, "No study session is live: start one to park thoughts in it.");
    const item = await this.db.parkedItem.create({
      data: { id: crypto.randomUUID(), sessionId: target, text, source, status: "pending" },
    });
    this.sessions.emit("changed");
    return item;
  }

  parked(sessionId?: string): Promise<ParkedItem[]> {
    return this.db.parkedItem.findMany({
      where: sessionId ? { sessionId } : {},
      orderBy: { createdAt: "desc" },
      take: 500,
    });
  }

  async setParkedStatus(id: string, status: "pending" | "resolved" | "dismissed"): Promise<ParkedItem> {
    const found = await this.db.parkedItem.findUnique({ where: { id } });
    if (!found) throw new ApiError(404, "There is no such parked item: it may have been removed.");
    const item = await this.db.parkedItem.update({
      where: { id },
      data: { status, resolvedAt: status === "pending" ? null : new Date() },
    });
    this.sessions.emit("changed");
    return item;
  }

  async mark(input: { topic: string; status: string; note?: string | null }, source: Source, sessionId?: string): Promise<TopicMark> {
    const target = sessionId ?? (await this.openSessionId());
    if (!target) throw new ApiError(409, "No study session is live: start one to mark topics in it.");
    const mark = await this.db.$transaction(async (tx) => {
      const created = await tx.topicMark.create({
        data: { id: crypto.randomUUID(), sessionId: target, topic: input.topic, status: input.status, note: input.note ?? null, source },
      });
      if (input.status === "win") await tx.studySession.update({ where: { id: target }, data: { winCount: { increment: 1 } } });
      if (input.status === "struggling") await tx.studySession.update({ where: { id: target }, data: { struggleCount: { increment: 1 } } });
      return created;
    });
    this.sessions.emit("changed");
    return mark;
  }

  marks(sessionId: string): Promise<TopicMark[]> {
    return this.db.topicMark.findMany({ where: { sessionId }, orderBy: { createdAt: "asc" } });
  }

  /** The live session, reconciled: parking into a session whose server died is refused. */
  private async openSessionId(): Promise<string | undefined> {
    const state = await this.sessions.state();
    return state.session && state.session.status !== "ended" ? state.session.id : undefined;
  }
}
