// The card store on a real migrated SQLite file and a real PostgreSQL: cards from a mark, a parked thought and the tutor,
// reviews whose due dates match ts-fsrs run directly on the stored history, refusals that store
// nothing, the Anki export read back by a CSV reader, and the briefing TUTOR.md is written from.
import { parse } from "csv-parse/sync";
import { createEmptyCard, fsrs, type Grade } from "ts-fsrs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { openTestStorage, testProviders, type TestStorage } from "../db/test-storage.ts";
import { isRefusal, type RefusalKind } from "../errors/refusal.ts";
import { tutorInstructions } from "../agents/tutor-instructions.ts";
import { CardStore } from "./card-store.ts";
import { ANKI_HEADER, fromHtml } from "./anki-text.ts";

describe.each(testProviders())("on %s", (provider) => {
  let storage: TestStorage;
  let db: Db;
  let clock: Date;
  let store: CardStore;

  const SESSION = "11111111-1111-4111-8111-111111111111";
  const advance = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60_000));

  beforeEach(async () => {
    storage = await openTestStorage(provider);
    db = storage.db;
    clock = new Date("2026-12-01T09:00:00.000Z");
    store = new CardStore(db, undefined, () => clock);
    await db.studySession.create({
      data: { id: SESSION, topic: "closures", energy: 6, agent: "claude", transport: "pty", status: "ended", endedAt: clock },
    });
  });
  afterEach(async () => {
    await storage.dispose();
  });

  async function refusal(p: Promise<unknown>): Promise<{ kind: RefusalKind; message: string }> {
    try {
      await p;
    } catch (error) {
      if (isRefusal(error)) return { kind: error.kind, message: error.message };
      throw error;
    }
    throw new Error("expected a refusal");
  }

  /** Replays the stored reviews of a card through ts-fsrs itself, with the stored parameters. */
  async function directReplay(cardId: string) {
    const card = await db.card.findUniqueOrThrow({ where: { id: cardId }, include: { reviews: { orderBy: { reviewedAt: "asc" } } } });
    let state = createEmptyCard(card.createdAt);
    for (const r of card.reviews) state = fsrs(JSON.parse(r.parameters)).next(state, r.reviewedAt, r.rating as Grade).card;
    return { stored: card, direct: state };
  }

  describe("CardStore", () => {
    it("makes a card from a struggle mark and one by the tutor, reviews both, and the due dates follow FSRS", async () => {
      const mark = await db.topicMark.create({
        data: {
          id: "22222222-2222-4222-8222-222222222222",
          sessionId: SESSION,
          topic: "closures",
          status: "struggling",
          note: "capture by reference",
        },
      });
      expect(await store.cardlessStruggles(SESSION)).toEqual([{ markId: mark.id, topic: "closures", note: "capture by reference" }]);

      const mine = await store.create(
        {
          front: "What does a closure capture?",
          back: "Its lexical scope's variables, by reference",
          origin: { kind: "mark", id: mark.id },
        },
        { source: "learner" },
      );
      expect(mine).toMatchObject({
        topic: "closures",
        origin: "mark",
        originId: mark.id,
        sessionId: SESSION,
        author: "learner",
        isDue: true,
        reps: 0,
      });
      expect(await store.cardlessStruggles(SESSION)).toEqual([]);

      const tutors = await store.create(
        { front: "Closure in a loop with var?", back: "All share one binding" },
        { source: "agent", sessionId: SESSION },
      );
      expect(tutors).toMatchObject({ topic: "closures", origin: "agent", author: "agent", sessionId: SESSION });
      expect(await store.dueCount("closures")).toBe(2);

      // Different answers over a few days.
      advance(1);
      await store.review(mine.id, { rating: "good", reps: 0, durationMs: 4200 });
      advance(2);
      await store.review(tutors.id, { rating: "again", reps: 0 });
      advance(15);
      await store.review(tutors.id, { rating: "hard", reps: 1 });
      advance(60 * 24 * 3);
      await store.review(mine.id, { rating: "easy", reps: 1 });

      for (const id of [mine.id, tutors.id]) {
        const { stored, direct } = await directReplay(id);
        expect(stored.due.toISOString()).toBe(direct.due.toISOString());
        expect(stored.stability).toBeCloseTo(direct.stability, 10);
        expect(stored.difficulty).toBeCloseTo(direct.difficulty, 10);
        expect(stored.state).toBe(direct.state);
        expect(stored.reps).toBe(2);
      }
      const history = await store.reviews(mine.id);
      expect(history.map((r) => r.rating)).toEqual(["good", "easy"]);
      expect(history[0]!.durationMs).toBe(4200);
      expect(JSON.parse((await db.cardReview.findFirstOrThrow()).parameters)).toMatchObject({
        scheduler: "ts-fsrs@5",
        request_retention: 0.9,
        enable_fuzz: false,
      });
      // The easy card is now days away, the hard one sooner.
      const [a, b] = [await store.get(mine.id), await store.get(tutors.id)];
      expect(new Date(a.due).getTime()).toBeGreaterThan(new Date(b.due).getTime());
    });

    it("refuses a second answer to the same showing (another device) and stores nothing", async () => {
      const card = await store.create({ front: "f", back: "b", topic: "t" }, { source: "learner" });
      await store.review(card.id, { rating: "good", reps: 0 });
      const again = await refusal(store.review(card.id, { rating: "again", reps: 0 }));
      expect(again.kind).toBe("conflict");
      expect(again.message).toMatch(/just reviewed/);
      expect(await db.cardReview.count()).toBe(1);
      expect((await refusal(store.review("33333333-3333-4333-8333-333333333333", { rating: "good", reps: 0 }))).kind).toBe("not-found");
    });

    it("refuses an origin that does not exist, a tutor naming one, and a card with no topic, storing nothing", async () => {
      expect(
        (
          await refusal(
            store.create(
              { front: "f", back: "b", origin: { kind: "mark", id: "44444444-4444-4444-8444-444444444444" } },
              { source: "learner" },
            ),
          )
        ).kind,
      ).toBe("not-found");
      expect(
        (
          await refusal(
            store.create(
              { front: "f", back: "b", origin: { kind: "parked", id: "44444444-4444-4444-8444-444444444444" } },
              { source: "learner" },
            ),
          )
        ).kind,
      ).toBe("not-found");
      expect((await refusal(store.create({ front: "f", back: "b" }, { source: "learner" }))).message).toMatch(/topic is empty/);
      expect(
        (
          await refusal(
            store.create({ front: "f", back: "b", origin: { kind: "mark", id: SESSION } }, { source: "agent", sessionId: SESSION }),
          )
        ).message,
      ).toMatch(/leave out origin/);
      expect(await db.card.count()).toBe(0);
    });

    it("makes a card from a parked thought and from a transcript, filed under the session's topic", async () => {
      const item = await db.parkedItem.create({
        data: { id: "55555555-5555-4555-8555-555555555555", sessionId: SESSION, text: "why is this undefined?" },
      });
      const fromParked = await store.create(
        { front: item.text, back: "this depends on the call", origin: { kind: "parked", id: item.id } },
        { source: "learner" },
      );
      expect(fromParked).toMatchObject({ topic: "closures", origin: "parked", originId: item.id });
      const fromTranscript = await store.create(
        { front: "q", back: "a passage", origin: { kind: "transcript", sessionId: SESSION } },
        { source: "learner" },
      );
      expect(fromTranscript).toMatchObject({ topic: "closures", origin: "transcript", sessionId: SESSION });
    });

    it("imports a CSV all or nothing", async () => {
      const ok = await store.importCsv('front,back,topic\n"What is 2+2?",4,maths\n"Quote ""me""","line one\nline two",\n', "general");
      expect(ok).toEqual({ imported: 2, topics: ["maths", "general"] });
      const bad = await refusal(store.importCsv("a,b,t\nonly a front\n", "x"));
      expect(bad.kind).toBe("invalid");
      expect(bad.message).toMatch(/Card 2 .* has 1 column.*Nothing was imported/);
      expect((await refusal(store.importCsv('a,"unclosed\n', "x"))).message).toMatch(/could not be read.*Nothing was imported/);
      expect((await refusal(store.importCsv("a,b\n", undefined))).message).toMatch(/no topic/);
      expect(await db.card.count()).toBe(2);
    });

    it("exports Anki's text format, which a CSV reader parses back to the same cards", async () => {
      const tricky = [
        { front: "Tab\there & <b>not bold</b>", back: 'He said "hi"\nthen left', topic: "html & quotes" },
        { front: "#not a header", back: "plain", topic: "closures" },
      ];
      for (const c of tricky) await store.create(c, { source: "learner" });
      const { text, count } = await store.exportAnki();
      expect(count).toBe(2);
      expect(text.split("\n").slice(0, ANKI_HEADER.length)).toEqual(ANKI_HEADER);
      const rows: string[][] = parse(text, {
        delimiter: "\t",
        comment: "#",
        comment_no_infix: true,
        skip_empty_lines: true,
        relax_quotes: false,
      });
      expect(rows).toHaveLength(2);
      const back = rows.map(([guid, front, backSide, deck, tags]) => ({
        guid,
        front: fromHtml(front!),
        back: fromHtml(backSide!),
        deck,
        tags,
      }));
      const cards = await db.card.findMany();
      for (const c of tricky) {
        const row = back.find((r) => r.front === c.front)!;
        expect(row).toBeDefined();
        expect(row.back).toBe(c.back);
        expect(row.deck).toBe(`StudyLoop::${c.topic}`);
        expect(row.tags!.split(" ")).toContain("studyloop");
        expect(cards.map((x) => x.id)).toContain(row.guid);
      }
      expect((await store.exportAnki("closures")).count).toBe(1);
    });

    it("briefs TUTOR.md with the topic's due cards and recent struggles", async () => {
      await db.topicMark.create({
        data: {
          id: "66666666-6666-4666-8666-666666666666",
          sessionId: SESSION,
          topic: "closures",
          status: "struggling",
          note: "loops and var",
        },
      });
      await store.create(
        { front: "What does a closure capture?", back: "Variables, by reference", topic: "closures" },
        { source: "learner" },
      );
      await store.create({ front: "Elsewhere", back: "x", topic: "monads" }, { source: "learner" });
      const briefing = await store.briefing("closures");
      expect(briefing.dueCount).toBe(1);
      const md = tutorInstructions({ topic: "closures", energy: 6, focusMinutes: 25, review: briefing });
      expect(md).toContain("1 card on **closures** due for review");
      expect(md).toContain("Q: What does a closure capture?");
      expect(md).toContain("A: Variables, by reference");
      expect(md).toContain("closures: loops and var");
      expect(md).not.toContain("Elsewhere");
      expect(md).toContain("studyloop card");
      expect(tutorInstructions({ topic: "closures", energy: 6, focusMinutes: 25 })).toContain("No cards on **closures** are due");
    });

    it("builds the topic page: cards, retention from reviews, wins and struggles by week", async () => {
      await db.topicMark.createMany({
        data: [
          { id: "77777777-7777-4777-8777-777777777777", sessionId: SESSION, topic: "closures", status: "struggling" },
          { id: "88888888-8888-4888-8888-888888888888", sessionId: SESSION, topic: "closures", status: "win" },
        ],
      });
      const card = await store.create({ front: "f", back: "b", topic: "closures" }, { source: "learner" });
      await store.review(card.id, { rating: "good", reps: 0 });
      advance(20);
      await store.review(card.id, { rating: "good", reps: 1 });
      advance(60 * 24 * 10);
      await store.review(card.id, { rating: "good", reps: 2 });
      advance(60 * 24 * 30);
      await store.review(card.id, { rating: "again", reps: 3 });
      const page = await store.topicPage("closures");
      expect(page.cards).toHaveLength(1);
      expect(page.model).toMatchObject({ cards: 1, reviews: 4, wins: 1, struggles: 1 });
      expect(page.model.retention).toBeCloseTo(0.5, 5); // of the two answers in review state, one recalled
      expect(page.model.weeks.length).toBeGreaterThanOrEqual(3);
      expect(page.struggles).toHaveLength(1);
    });

    it("counts a topic's own marks and its sessions' once each, all time; lists the last 52 weeks", async () => {
      const OTHER = "22222222-2222-4222-8222-222222222222";
      await db.studySession.create({
        data: { id: OTHER, topic: "monads", energy: 6, agent: "claude", transport: "pty", status: "ended", endedAt: clock },
      });
      const day = 24 * 60 * 60_000;
      const at = (daysAgo: number) => new Date(clock.getTime() - daysAgo * day);
      const mark = (n: number, sessionId: string, topic: string, status: string, createdAt: Date) => ({
        id: `${String(n).repeat(8)}-0000-4000-8000-000000000000`,
        sessionId,
        topic,
        status,
        createdAt,
      });
      await db.topicMark.createMany({
        data: [
          mark(1, SESSION, "closures", "win", at(1)), // its own, in its session: once
          mark(2, SESSION, "scope", "struggling", at(2)), // another topic, in its session
          mark(3, OTHER, "closures", "struggling", at(3)), // its own, in another session
          mark(4, OTHER, "monads", "win", at(4)), // neither
          mark(5, SESSION, "closures", "win", at(400)), // over a year ago: counted, not listed by week
          mark(6, SESSION, "closures", "insight", at(5)), // neither a win nor a struggle
        ],
      });
      const page = await store.topicPage("closures");
      expect(page.model).toMatchObject({ wins: 2, struggles: 2 });
      const weeks = page.model.weeks;
      expect(weeks.reduce((n, w) => n + w.wins, 0)).toBe(1);
      expect(weeks.reduce((n, w) => n + w.struggles, 0)).toBe(2);
      expect(weeks.every((w) => w.week >= "2025-12-01")).toBe(true);
      expect(page.struggles.map((s) => s.id)).toEqual([mark(2, "", "", "", at(0)).id, mark(3, "", "", "", at(0)).id]);
    });
  });
});
