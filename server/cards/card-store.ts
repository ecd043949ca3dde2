// The cards and their reviews in the database (runtime.cards): made by the learner or the tutor,
// reviewed with FSRS (scheduling.ts), exported for Anki, imported from CSV. Every write checks its
// input first and writes in one transaction: bad input stores nothing.
import crypto from "node:crypto";
import type { Db } from "../db/client.ts";
import type { Card, TopicMark } from "../db/generated/client.ts";
import { conflict, invalid, notFound } from "../errors/refusal.ts";
import { toAnkiText } from "./anki-text.ts";
import type { CardsQuery, EditCardInput, NewCardInput, ReviewInput } from "./card-schemas.ts";
import { schedulingOf, toCardView, toReviewView, type CardOrigin, type CardView, type ReviewView } from "./card-view.ts";
import { parseCardsCsv } from "./csv-import.ts";
import { defaultParameters, newState, ratingNumber, schedule, type SchedulerParameters, type SchedulingState } from "./scheduling.ts";
import { topicModel, weeksShownSince, type TopicMarks, type TopicModel } from "./topic-model.ts";
import { WriteBudget } from "./write-budget.ts";

export type CardWriter = { source: "learner"; sessionId?: undefined } | { source: "agent"; sessionId: string };

/** A list answers with at most this many cards (the review page asks for far fewer). */
const LIST_LIMIT = 1_000;
/** TUTOR.md lists this many due cards and recent struggles: enough to open with, short to read. */
const BRIEFING_CARDS = 10;
const BRIEFING_STRUGGLES = 8;
/** Struggles the topic page lists, newest first. */
const TOPIC_STRUGGLES = 50;

/** What TUTOR.md says about the topic: its due cards and the learner's recent struggles. */
export interface TutorBriefing {
  readonly dueCards: readonly { front: string; back: string }[];
  readonly dueCount: number;
  readonly struggles: readonly { topic: string; note: string | null; at: string }[];
}

/** A struggle mark of a session that has no card yet: the summary offers one. */
export interface CardlessStruggle {
  readonly markId: string;
  readonly topic: string;
  readonly note: string | null;
}

export interface TopicPage {
  readonly topic: string;
  readonly model: TopicModel;
  readonly cards: readonly CardView[];
  readonly struggles: readonly { id: string; topic: string; note: string | null; at: string; sessionId: string; hasCard: boolean }[];
}

/** A topic's marks: its own, and those its sessions made on other topics (so none is read twice). */
const topicSides = (topic: string) => [{ topic }, { sessionTopic: topic, topic: { not: topic } }];

export class CardStore {
  /** Writes per client (route handlers refuse past it, write-budget.ts). */
  readonly writes = new WriteBudget();
  /** Told after every write: the server pushes the pages what changed (the warm-up's due count). */
  private changed: () => void = () => undefined;

  constructor(
    private readonly db: Db,
    private readonly params: SchedulerParameters = defaultParameters(),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Whom to tell after each write of cards (one listener: the server's event bus). */
  onChange(listener: () => void): void {
    this.changed = listener;
  }

  /** A new card; the learner names its origin, the tutor's cards come from its session. */
  async create(input: NewCardInput, writer: CardWriter): Promise<CardView> {
    const now = this.now();
    const origin = await this.resolveOrigin(input, writer);
    const topic = input.topic ?? origin.defaultTopic;
    if (!topic) throw invalid("topic is empty: say what the card is about.", { field: "topic" });
    const card = await this.db.card.create({
      data: {
        id: crypto.randomUUID(),
        front: input.front,
        back: input.back,
        topic,
        origin: origin.kind,
        originId: origin.id,
        sessionId: origin.sessionId,
        author: writer.source,
        createdAt: now,
        ...stateColumns(newState(now)),
      },
    });
    this.changed();
    return toCardView(card, now);
  }

  async list(query: CardsQuery = {}): Promise<{ cards: CardView[]; dueCount: number }> {
    const now = this.now();
    const where = { ...(query.topic ? { topic: query.topic } : {}), ...(query.due ? { due: { lte: now } } : {}) };
    const [cards, dueCount] = await Promise.all([
      this.db.card.findMany({
        where,
        orderBy: query.due ? [{ due: "asc" }, { createdAt: "asc" }] : [{ createdAt: "desc" }],
        take: query.limit ?? LIST_LIMIT,
      }),
      this.dueCount(query.topic),
    ]);
    return { cards: cards.map((c) => toCardView(c, now)), dueCount };
  }

  dueCount(topic?: string): Promise<number> {
    return this.db.card.count({ where: { due: { lte: this.now() }, ...(topic ? { topic } : {}) } });
  }

  /** Due cards per topic, most first: the dashboard's list. */
  async dueByTopic(): Promise<{ topic: string; due: number }[]> {
    const rows = await this.db.card.groupBy({ by: ["topic"], where: { due: { lte: this.now() } }, _count: { _all: true } });
    return rows.map((r) => ({ topic: r.topic, due: r._count._all })).sort((a, b) => b.due - a.due || a.topic.localeCompare(b.topic));
  }

  async get(id: string): Promise<CardView> {
    return toCardView(await this.row(id), this.now());
  }

  async edit(id: string, patch: EditCardInput): Promise<CardView> {
    await this.row(id);
    const card = await this.db.card.update({ where: { id }, data: patch });
    this.changed();
    return toCardView(card, this.now());
  }

  async remove(id: string): Promise<void> {
    const { count } = await this.db.card.deleteMany({ where: { id } });
    if (count === 0) throw notFound("There is no such card: it may have been deleted already.");
    this.changed();
  }

  /**
   * Records an answer: the review row (rating, time, parameters, resulting state) and the card's new
   * state, together. `reps` must be the count the learner saw, so a second device's answer to the
   * same showing is refused instead of counted twice.
   */
  async review(id: string, input: ReviewInput): Promise<{ card: CardView; review: ReviewView }> {
    const at = this.now();
    const rating = ratingNumber(input.rating);
    const reviewed = await this.db.$transaction(async (tx) => {
      const card = await tx.card.findUnique({ where: { id } });
      if (!card) throw notFound("There is no such card: it may have been deleted.");
      if (card.reps !== input.reps)
        throw conflict("This card was just reviewed (on another device?): it is shown again with its new due date.");
      const { before, after } = schedule(schedulingOf(card), rating, at, this.params);
      const { count } = await tx.card.updateMany({ where: { id, reps: card.reps }, data: stateColumns(after) });
      if (count === 0) throw conflict("This card was just reviewed (on another device?): it is shown again with its new due date.");
      const review = await tx.cardReview.create({
        data: {
          cardId: id,
          rating,
          reviewedAt: at,
          durationMs: input.durationMs ?? null,
          parameters: JSON.stringify(this.params),
          stateBefore: before.state,
          state: after.state,
          due: after.due,
          stability: after.stability,
          difficulty: after.difficulty,
          scheduledDays: after.scheduledDays,
          learningSteps: after.learningSteps,
        },
      });
      const updated = await tx.card.findUniqueOrThrow({ where: { id } });
      return { card: toCardView(updated, at), review: toReviewView(review) };
    });
    this.changed();
    return reviewed;
  }

  async reviews(id: string): Promise<ReviewView[]> {
    await this.row(id);
    const rows = await this.db.cardReview.findMany({ where: { cardId: id }, orderBy: [{ reviewedAt: "asc" }, { id: "asc" }] });
    return rows.map(toReviewView);
  }

  /** Anki's text import format (anki-text.ts), one topic or all. */
  async exportAnki(topic?: string): Promise<{ text: string; count: number }> {
    const cards = await this.db.card.findMany({ where: topic ? { topic } : {}, orderBy: [{ topic: "asc" }, { createdAt: "asc" }] });
    return { text: toAnkiText(cards), count: cards.length };
  }

  /** Adds every card of a CSV, or none: a bad line is named and nothing is stored. */
  async importCsv(csv: string, defaultTopic?: string): Promise<{ imported: number; topics: string[] }> {
    const parsed = parseCardsCsv(csv, defaultTopic);
    if (!parsed.ok) throw invalid(parsed.reason, { field: "csv" });
    const now = this.now();
    const state = stateColumns(newState(now));
    await this.db.$transaction(
      parsed.cards.map((c) =>
        this.db.card.create({
          data: {
            id: crypto.randomUUID(),
            front: c.front,
            back: c.back,
            topic: c.topic,
            origin: "import",
            author: "learner",
            createdAt: now,
            ...state,
          },
        }),
      ),
    );
    this.changed();
    return { imported: parsed.cards.length, topics: [...new Set(parsed.cards.map((c) => c.topic))] };
  }

  /** For TUTOR.md at a session's start: the topic's due cards and recent struggles. */
  async briefing(topic: string): Promise<TutorBriefing> {
    const now = this.now();
    const [due, dueCount, struggles] = await Promise.all([
      this.db.card.findMany({
        where: { topic, due: { lte: now } },
        orderBy: { due: "asc" },
        take: BRIEFING_CARDS,
        select: { front: true, back: true },
      }),
      this.dueCount(topic),
      this.db.topicMark.findMany({
        where: { status: "struggling", OR: [{ topic }, { session: { topic } }] },
        orderBy: { createdAt: "desc" },
        take: BRIEFING_STRUGGLES,
      }),
    ]);
    return { dueCards: due, dueCount, struggles: struggles.map((m) => ({ topic: m.topic, note: m.note, at: m.createdAt.toISOString() })) };
  }

  /** briefing() for a session start, which a failed read must not stop: logged, and TUTOR.md goes without. */
  briefingOrNothing(log: (line: string) => void): (topic: string) => Promise<TutorBriefing | undefined> {
    return (topic) =>
      this.briefing(topic).catch((error: unknown) => {
        log(`The due cards for TUTOR.md could not be read: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
  }

  /** The session's struggle marks that no card was made from yet. */
  async cardlessStruggles(sessionId: string): Promise<CardlessStruggle[]> {
    const marks = await this.db.topicMark.findMany({ where: { sessionId, status: "struggling" }, orderBy: { createdAt: "asc" } });
    if (marks.length === 0) return [];
    const made = new Set(
      (
        await this.db.card.findMany({ where: { origin: "mark", originId: { in: marks.map((m) => m.id) } }, select: { originId: true } })
      ).map((c) => c.originId),
    );
    return marks.filter((m) => !made.has(m.id)).map((m) => ({ markId: m.id, topic: m.topic, note: m.note }));
  }

  /** The topic page: its cards, its learner model, its struggles and whether each has a card. */
  async topicPage(topic: string): Promise<TopicPage> {
    const now = this.now();
    const [cards, reviews, marks, struggles] = await Promise.all([
      this.db.card.findMany({ where: { topic }, orderBy: [{ due: "asc" }] }),
      this.db.cardReview.findMany({ where: { card: { topic } }, select: { rating: true, reviewedAt: true, stateBefore: true } }),
      this.topicMarks(topic, weeksShownSince(now)),
      this.newestStruggles(topic),
    ]);
    const carded = new Set(cards.filter((c) => c.origin === "mark").map((c) => c.originId));
    return {
      topic,
      model: topicModel(cards.map(schedulingOf), reviews, marks, now),
      cards: cards.map((c) => toCardView(c, now)),
      struggles: struggles.map((m) => ({
        id: m.id,
        topic: m.topic,
        note: m.note,
        at: m.createdAt.toISOString(),
        sessionId: m.sessionId,
        hasCard: carded.has(m.id),
      })),
    };
  }

  /**
   * A topic's marks are its own and those its sessions made on other topics, so nothing is counted
   * twice. Wins and struggles come from the tallies the triggers keep (topic_mark_tallies,
   * session_topic_mark_tallies: counting them grew with the history); the weeks shown are listed,
   * each side off its own index (the session side by the session's topic each mark carries).
   */
  private async topicMarks(topic: string, since: Date): Promise<TopicMarks> {
    const counted = { status: { in: ["win", "struggling"] } };
    const sides = topicSides(topic);
    const [own, others, recent] = await Promise.all([
      this.db.topicMarkTally.findUnique({ where: { topic }, select: { wins: true, struggles: true } }),
      this.db.sessionTopicMarkTally.findMany({ where: { topic, ...counted }, select: { status: true, marks: true } }),
      Promise.all(
        sides.map((side) =>
          this.db.topicMark.findMany({
            where: { ...side, ...counted, createdAt: { gte: since } },
            select: { status: true, createdAt: true },
          }),
        ),
      ),
    ]);
    const theirs = (status: string) => others.find((t) => t.status === status)?.marks ?? 0;
    return {
      wins: (own?.wins ?? 0) + theirs("win"),
      struggles: (own?.struggles ?? 0) + theirs("struggling"),
      recent: recent.flat(),
    };
  }

  /** The newest struggles of a topic (its own marks and its sessions'), newest first. */
  private async newestStruggles(topic: string): Promise<TopicMark[]> {
    const sides = topicSides(topic);
    const newest = await Promise.all(
      sides.map((side) =>
        this.db.topicMark.findMany({ where: { ...side, status: "struggling" }, orderBy: { createdAt: "desc" }, take: TOPIC_STRUGGLES }),
      ),
    );
    return newest
      .flat()
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, TOPIC_STRUGGLES);
  }

  private async row(id: string): Promise<Card> {
    const card = await this.db.card.findUnique({ where: { id } });
    if (!card) throw notFound("There is no such card: it may have been deleted.");
    return card;
  }

  private async resolveOrigin(
    input: NewCardInput,
    writer: CardWriter,
  ): Promise<{ kind: CardOrigin; id: string | null; sessionId: string | null; defaultTopic: string | null }> {
    if (writer.source === "agent") {
      if (input.origin && input.origin.kind !== "hand")
        throw invalid("The tutor's cards come from its session: leave out origin.", { field: "origin" });
      const session = await this.db.studySession.findUnique({ where: { id: writer.sessionId }, select: { topic: true } });
      return { kind: "agent", id: null, sessionId: writer.sessionId, defaultTopic: session?.topic ?? null };
    }
    const origin = input.origin ?? { kind: "hand" as const };
    switch (origin.kind) {
      case "mark": {
        const mark = await this.db.topicMark.findUnique({ where: { id: origin.id } });
        if (!mark) throw notFound("That topic mark no longer exists: make the card by hand instead.");
        return { kind: "mark", id: mark.id, sessionId: mark.sessionId, defaultTopic: mark.topic };
      }
      case "parked": {
        const item = await this.db.parkedItem.findUnique({ where: { id: origin.id }, include: { session: { select: { topic: true } } } });
        if (!item) throw notFound("That parked thought no longer exists: make the card by hand instead.");
        return { kind: "parked", id: item.id, sessionId: item.sessionId, defaultTopic: item.session?.topic ?? null };
      }
      case "transcript": {
        const session = await this.db.studySession.findUnique({ where: { id: origin.sessionId }, select: { topic: true } });
        if (!session) throw notFound("That session no longer exists: make the card by hand instead.");
        return { kind: "transcript", id: null, sessionId: origin.sessionId, defaultTopic: session.topic };
      }
      default:
        return { kind: "hand", id: null, sessionId: null, defaultTopic: null };
    }
  }
}

function stateColumns(s: SchedulingState) {
  return {
    due: s.due,
    stability: s.stability,
    difficulty: s.difficulty,
    scheduledDays: s.scheduledDays,
    learningSteps: s.learningSteps,
    reps: s.reps,
    lapses: s.lapses,
    state: s.state,
    lastReview: s.lastReview,
  };
}
