// Second thoughts: a topic mark or a parked thought edited or taken back from the study page. A mark
// belongs to its session's summary, so it changes only while that session is live (the win and
// struggle counts follow); a parked thought's text can be corrected any time, and it can be taken
// back unless it was already carried into a later session.
import type { Db } from "../db/client.ts";
import type { ParkedItem, TopicMark } from "../db/generated/client.ts";
import { conflict, notFound } from "../errors/refusal.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import type { StudySessionWrites } from "../sessions/ports.ts";
import type { MarkStatus } from "../../common/study/study-view.ts";

export interface MarkChange {
  readonly topic?: string;
  readonly status?: MarkStatus;
  /** null or "" clears the note. */
  readonly note?: string | null;
}

export class StudyEdits {
  constructor(
    private readonly db: Db,
    /** The session store, the only writer of study_sessions: it moves the win and struggle counts. */
    private readonly sessions: StudySessionWrites,
    private readonly events: SessionEvents,
  ) {}

  async editMark(id: string, change: MarkChange): Promise<TopicMark> {
    const found = await this.liveMark(id);
    const status = change.status ?? found.status;
    const mark = await this.db.$transaction(async (tx) => {
      const updated = await tx.topicMark.update({
        where: { id },
        data: {
          ...(change.topic !== undefined ? { topic: change.topic } : {}),
          ...(change.status !== undefined ? { status } : {}),
          ...(change.note !== undefined ? { note: change.note ? change.note : null } : {}),
        },
      });
      await this.sessions.countMark(tx, found.sessionId, found.status, status);
      return updated;
    });
    this.events.emit("changed");
    return mark;
  }

  async removeMark(id: string): Promise<void> {
    const found = await this.liveMark(id);
    await this.db.$transaction(async (tx) => {
      await tx.topicMark.delete({ where: { id } });
      await this.sessions.countMark(tx, found.sessionId, found.status, null);
    });
    this.events.emit("changed");
  }

  async editParked(id: string, text: string): Promise<ParkedItem> {
    await this.parked(id);
    const item = await this.db.parkedItem.update({ where: { id }, data: { text } });
    this.events.emit("changed");
    return item;
  }

  async removeParked(id: string): Promise<void> {
    await this.parked(id);
    if ((await this.db.parkedItem.count({ where: { carriedFromId: id } })) > 0) {
      throw conflict("This thought was already carried into a later session: change it there.");
    }
    await this.db.parkedItem.delete({ where: { id } });
    this.events.emit("changed");
  }

  private async liveMark(id: string): Promise<TopicMark> {
    const found = await this.db.topicMark.findUnique({ where: { id }, include: { session: { select: { endedAt: true } } } });
    if (!found) throw notFound("There is no such topic mark: it may have been taken back already.");
    if (found.session.endedAt) throw conflict("That session has ended: its marks are part of its summary now.");
    return found;
  }

  private async parked(id: string): Promise<ParkedItem> {
    const found = await this.db.parkedItem.findUnique({ where: { id } });
    if (!found) throw notFound("There is no such parked thought: it may have been taken back already.");
    return found;
  }
}
