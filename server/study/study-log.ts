// What the learner (and the agent) write down during a session: parked thoughts and topic marks.
// Each is written to the database the moment it is created (invariant 4), never only at the end.
// The study loop's other parts hang off this one object (runtime.study): the focus timer and the
// history readers, so route handlers and pages reach them the same way.
import crypto from "node:crypto";
import type { Db } from "../db/client.ts";
import type { ParkedItem, TopicMark } from "../db/generated/client.ts";
import { conflict, notFound } from "../errors/refusal.ts";
import type { SessionReader } from "../sessions/ports.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import { FocusTimer } from "./focus-timer.ts";
import { StudyHistory } from "./history.ts";
import { StudyEdits } from "./study-edits.ts";
import { MINUTE_MS } from "../../common/study/timer.ts";
import {
  toMarkView,
  toParkedView,
  toStudyLiveView,
  type MarkView,
  type ParkedStatus,
  type ParkedView,
  type StudyLiveView,
} from "../../common/study/study-view.ts";

export type Source = "learner" | "agent";

export interface StudyLogOptions {
  /** One minute of a focus plan in ms (tests shorten it). */
  readonly minuteMs?: number;
  readonly log?: (line: string) => void;
  /** Review cards on a topic due now (the card store's count), for the live view's warm-up. */
  readonly dueCards?: (topic: string) => Promise<number>;
}

/** The parking lot page shows at most this many items (newest first). */
const PARKING_LOT_LIMIT = 500;

export class StudyLog {
  readonly timer: FocusTimer;
  readonly history: StudyHistory;
  /** Editing and taking back marks and parked thoughts. */
  readonly edits: StudyEdits;
  private readonly dueCards: (topic: string) => Promise<number>;

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionReader,
    private readonly events: SessionEvents,
    options: StudyLogOptions = {},
  ) {
    const log = options.log ?? ((line: string) => console.log(line));
    this.dueCards = options.dueCards ?? (() => Promise.resolve(0));
    this.timer = new FocusTimer(db, sessions, events, options.minuteMs ?? MINUTE_MS, log);
    this.history = new StudyHistory(db, sessions, this);
    this.edits = new StudyEdits(db, sessions.writes, events);
  }

  /** Starts the background work (break nudges); stop() before the database closes. */
  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** Parks a thought into the open session (the learner), or into the token's session (the agent). */
  async park(text: string, source: Source, sessionId?: string): Promise<ParkedItem> {
    const target = sessionId ?? (await this.openSessionId());
    if (!target) throw conflict("No study session is live: start one to park thoughts in it.");
    const item = await this.db.parkedItem.create({
      data: { id: crypto.randomUUID(), sessionId: target, text, source, status: "pending" },
    });
    this.events.study("parked", target, { id: item.id, text, source });
    return item;
  }

  parked(sessionId?: string): Promise<ParkedItem[]> {
    return this.db.parkedItem.findMany({
      where: sessionId ? { sessionId } : {},
      orderBy: { createdAt: "desc" },
      take: PARKING_LOT_LIMIT,
    });
  }

  /** The parking lot: items with the topic of the session each was parked in, newest first. */
  async parkingLot(filter: { sessionId?: string; status?: ParkedStatus } = {}): Promise<ParkedView[]> {
    const items = await this.db.parkedItem.findMany({
      where: { ...(filter.sessionId ? { sessionId: filter.sessionId } : {}), ...(filter.status ? { status: filter.status } : {}) },
      include: { session: { select: { topic: true } } },
      orderBy: { createdAt: "desc" },
      take: PARKING_LOT_LIMIT,
    });
    return items.map((item) => toParkedView(item, item.session?.topic ?? null));
  }

  async setParkedStatus(id: string, status: ParkedStatus): Promise<ParkedItem> {
    const found = await this.db.parkedItem.findUnique({ where: { id } });
    if (!found) throw notFound("There is no such parked item: it may have been removed.");
    if (found.status === "carried" && status !== "carried" && (await this.db.parkedItem.count({ where: { carriedFromId: id } })) > 0) {
      throw conflict("This item was already carried into a later session: change it there.");
    }
    const item = await this.db.parkedItem.update({
      where: { id },
      data: { status, resolvedAt: status === "pending" ? null : new Date() },
    });
    this.events.emit("changed");
    return item;
  }

  /**
   * Items the learner chose to carry into the next session become pending items of `sessionId`
   * (each once: the copy names the item it came from). Returns the copies.
   */
  async carryInto(sessionId: string): Promise<ParkedItem[]> {
    const copies = await this.db.$transaction(async (tx) => {
      const carried = await tx.parkedItem.findMany({
        where: { status: "carried", OR: [{ sessionId: null }, { sessionId: { not: sessionId } }] },
        orderBy: { createdAt: "asc" },
      });
      if (carried.length === 0) return [];
      const done = new Set(
        (await tx.parkedItem.findMany({ where: { carriedFromId: { in: carried.map((c) => c.id) } }, select: { carriedFromId: true } })).map(
          (c) => c.carriedFromId,
        ),
      );
      const made: ParkedItem[] = [];
      for (const item of carried.filter((c) => !done.has(c.id))) {
        made.push(
          await tx.parkedItem.create({
            data: { id: crypto.randomUUID(), sessionId, text: item.text, source: item.source, status: "pending", carriedFromId: item.id },
          }),
        );
      }
      return made;
    });
    if (copies.length > 0) this.events.emit("changed");
    return copies;
  }

  /** Carried items not yet taken into a session: what the next start will bring along. */
  async waitingToCarry(): Promise<ParkedView[]> {
    const carried = await this.db.parkedItem.findMany({
      where: { status: "carried" },
      include: { session: { select: { topic: true } } },
      orderBy: { createdAt: "asc" },
    });
    if (carried.length === 0) return [];
    const done = new Set(
      (
        await this.db.parkedItem.findMany({ where: { carriedFromId: { in: carried.map((c) => c.id) } }, select: { carriedFromId: true } })
      ).map((c) => c.carriedFromId),
    );
    return carried.filter((c) => !done.has(c.id)).map((c) => toParkedView(c, c.session?.topic ?? null));
  }

  async mark(input: { topic: string; status: string; note?: string | null }, source: Source, sessionId?: string): Promise<TopicMark> {
    const target = sessionId ?? (await this.openSessionId());
    if (!target) throw conflict("No study session is live: start one to mark topics in it.");
    const mark = await this.db.$transaction(async (tx) => {
      const created = await tx.topicMark.create({
        data: { id: crypto.randomUUID(), sessionId: target, topic: input.topic, status: input.status, note: input.note ?? null, source },
      });
      await this.sessions.writes.countMark(tx, target, null, input.status);
      return created;
    });
    this.events.study("marked", target, { id: mark.id, topic: mark.topic, status: mark.status, note: mark.note, source });
    return mark;
  }

  marks(sessionId: string): Promise<TopicMark[]> {
    return this.db.topicMark.findMany({ where: { sessionId }, orderBy: { createdAt: "asc" } });
  }

  async markViews(sessionId: string): Promise<MarkView[]> {
    return (await this.marks(sessionId)).map(toMarkView);
  }

  /** Parked items of one session, oldest first (the order they were written). */
  async parkedViews(sessionId: string, topic: string | null = null): Promise<ParkedView[]> {
    const items = await this.db.parkedItem.findMany({ where: { sessionId }, orderBy: { createdAt: "asc" }, take: PARKING_LOT_LIMIT });
    return items.map((item) => toParkedView(item, topic));
  }

  /** What the study page shows about a session besides the agent: timer, marks, parked items. */
  async liveView(sessionId: string): Promise<StudyLiveView | null> {
    const found = await this.sessions.session(sessionId);
    if (!found) return null;
    const [marks, parked, due] = await Promise.all([
      this.markViews(sessionId),
      this.parkedViews(sessionId, found.view.topic),
      this.dueCards(found.view.topic),
    ]);
    return toStudyLiveView(found.view, marks, parked, due);
  }

  /** The live session, reconciled: parking into a session whose server died is refused. */
  private async openSessionId(): Promise<string | undefined> {
    const state = await this.sessions.state();
    return state.session && state.session.status !== "ended" ? state.session.id : undefined;
  }
}
