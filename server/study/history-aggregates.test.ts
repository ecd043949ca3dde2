// The dashboard's figures from kept-up aggregates (server/sessions/history-aggregates.ts) must equal
// the straightforward computation from every row, which is what stats() did before issue 20; the
// history list's page of rows must equal Prisma's read minus the transcript. On a real migrated
// SQLite file and a real PostgreSQL, through the session store's own writes (claim, end) and real mark
// writes (the triggers).
import crypto from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHostCore, makeTestCoreOn, START, type TestCore } from "../sessions/test-support.ts";
import { testProviders } from "../db/test-storage.ts";
import { Prisma } from "../db/generated/client.ts";
import { StudyLog } from "./study-log.ts";
import { SearchIndex } from "../recording/search-index.ts";
import { dayKey, focusByDay, heatmap, streak, type TopicTally } from "../../common/study/stats.ts";
import { readTimer, timerStateOf } from "../../common/study/timer.ts";
import type { DashboardStats } from "./history.ts";

const MIN = 60_000;
/** A Tuesday afternoon, local time: the heatmap's window starts on the Monday 11 weeks before. */
const NOW = new Date(2026, 11, 1, 15, 0);
/** Ended sessions an hour apart up to NOW, the last of `ids` the newest, each of 30 minutes. */
async function hourlyEndedSessions(core: TestCore, ids: readonly string[], topicOf: (i: number) => string): Promise<void> {
  const n = ids.length;
  await core.db.studySession.createMany({
    data: ids.map((id, i) => ({
      id,
      topic: topicOf(i),
      energy: 5,
      agent: "tutor",
      transport: "pty",
      status: "ended",
      startedAt: new Date(NOW.getTime() - (n - i) * 60 * MIN),
      endedAt: new Date(NOW.getTime() - (n - i) * 60 * MIN + 30 * MIN),
    })),
  });
}

const local = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);

describe.each(testProviders())("on %s", (provider) => {
  let core: TestCore;
  let study: StudyLog;

  beforeEach(async () => {
    core = await makeTestCoreOn(provider);
    study = new StudyLog(core.db, core.service, core.service.events, { log: () => undefined });
  });
  afterEach(async () => {
    study.stop();
    await core.close();
  });

  /** stats.ts's topicTallies as it was before issue 20: one pass over every mark. */
  function topicTallies(marks: readonly { topic: string; status: string }[], limit = 10): TopicTally[] {
    const byKey = new Map<string, { topic: string; wins: number; struggles: number; learning: number; insights: number }>();
    for (const m of marks) {
      const topic = m.topic.trim();
      const key = topic.toLowerCase();
      const t = byKey.get(key) ?? { topic, wins: 0, struggles: 0, learning: 0, insights: 0 };
      if (m.status === "win") t.wins++;
      else if (m.status === "struggling") t.struggles++;
      else if (m.status === "learning") t.learning++;
      else if (m.status === "insight") t.insights++;
      byKey.set(key, t);
    }
    return [...byKey.values()]
      .filter((t) => t.wins + t.struggles > 0)
      .sort((a, b) => b.wins + b.struggles - (a.wins + a.struggles) || a.topic.localeCompare(b.topic))
      .slice(0, limit);
  }

  /** The stats as stats() counted them before issue 20: every session, every mark. */
  async function statsByScan(now: Date): Promise<DashboardStats> {
    const rows = await core.db.studySession.findMany();
    // In the order they were written: SQLite's rowid order; PostgreSQL returns updated rows last, so
    // there the order of their search documents (a serial id, written with each mark).
    const marks =
      provider === "postgresql"
        ? await core.db.$queryRaw<{ topic: string; status: string }[]>(
            Prisma.sql`SELECT m.topic, m.status FROM topic_marks m JOIN search_docs d ON d.source_id = m.id AND d.kind = 'mark' ORDER BY d.id`,
          )
        : await core.db.topicMark.findMany({ select: { topic: true, status: true } });
    const byDay = focusByDay(
      rows.map((row) => ({
        startedAt: row.startedAt,
        endedAt: row.endedAt ?? now,
        focusMs: readTimer(timerStateOf(row), now.getTime()).focusMs,
      })),
    );
    return { today: dayKey(now), heatmap: heatmap(byDay, now), streak: streak(byDay, now), topics: topicTallies(marks) };
  }

  /** Equal, focus times to a microsecond (sums in another order differ in the last bits). */
  function expectSameStats(actual: DashboardStats, expected: DashboardStats): void {
    const rounded = (s: DashboardStats) => ({
      ...s,
      heatmap: {
        ...s.heatmap,
        totalMs: Math.round(s.heatmap.totalMs * 1000),
        weeks: s.heatmap.weeks.map((w) => w.map((c) => ({ ...c, focusMs: Math.round(c.focusMs * 1000) }))),
      },
    });
    expect(rounded(actual)).toEqual(rounded(expected));
  }

  interface Ended {
    readonly startedAt: Date;
    readonly minutes: number;
    readonly pausedMs?: number;
    /** A pause still open when the session ended. */
    readonly pausedForMs?: number;
    readonly topic?: string;
    readonly reason?: string;
    readonly marks?: readonly (readonly [topic: string, status: string])[];
  }

  /** A session claimed and ended through the store (of `on`, another host's), as the app does; its marks written while it was open. */
  async function ended(s: Ended, on: TestCore = core): Promise<string> {
    const id = crypto.randomUUID();
    const endedAt = new Date(s.startedAt.getTime() + s.minutes * MIN);
    const ok = await on.service.store.claim({
      id,
      topic: s.topic ?? "closures",
      energy: 5,
      agent: "tutor",
      transport: "pty",
      startedAt: s.startedAt,
      pausedMs: s.pausedMs ?? 0,
      pausedAt: s.pausedForMs ? new Date(endedAt.getTime() - s.pausedForMs) : null,
    });
    expect(ok).toBe(true);
    for (const [topic, status] of s.marks ?? []) {
      await core.db.topicMark.create({ data: { id: crypto.randomUUID(), sessionId: id, topic, status } });
    }
    const row = await on.service.store.byId(id);
    expect(await on.service.store.end(row!, { reason: s.reason ?? "ended-by-learner", endedAt })).toBe(true);
    return id;
  }

  /** Monday of the heatmap's first week (11 weeks before this week's Monday). */
  const windowStart = local(2026, 9, 14, 0, 0);

  const HISTORY: readonly Ended[] = [
    // Long before the window: only the longest streak sees these.
    { startedAt: local(2025, 1, 6, 9), minutes: 40, marks: [["Closures", "win"]] },
    { startedAt: local(2025, 1, 7, 9), minutes: 30 },
    { startedAt: local(2025, 1, 8, 9), minutes: 30, pausedMs: 10 * MIN },
    { startedAt: local(2025, 1, 9, 9), minutes: 50, topic: "recursion", marks: [["recursion", "struggling"]] },
    // Across the window's first midnight: half before the window, half on its first day.
    { startedAt: new Date(windowStart.getTime() - 30 * MIN), minutes: 60, pausedMs: 20 * MIN },
    // Ends exactly at the window's start.
    { startedAt: new Date(windowStart.getTime() - 45 * MIN), minutes: 45 },
    // Across midnight inside the window, with a pause still open at the end.
    { startedAt: local(2026, 10, 20, 23, 10), minutes: 90, pausedForMs: 15 * MIN, marks: [["closures ", "learning"]] },
    // Failed starts: 0 minutes, nothing marked (hidden by default in the list, no focus).
    { startedAt: local(2026, 11, 2, 10), minutes: 0, reason: "agent-exited" },
    { startedAt: local(2026, 11, 3, 10), minutes: 0, reason: "start-failed" },
    // A streak up to yesterday and today.
    {
      startedAt: local(2026, 11, 28, 20),
      minutes: 25,
      topic: "graphs",
      marks: [
        ["graphs", "win"],
        ["Graphs", "insight"],
      ],
    },
    { startedAt: local(2026, 11, 29, 20), minutes: 35, topic: "graphs", marks: [["big-o", "struggling"]] },
    { startedAt: local(2026, 11, 30, 7), minutes: 120, pausedMs: 30 * MIN },
    {
      startedAt: local(2026, 12, 1, 9),
      minutes: 20,
      topic: "sql",
      marks: [
        ["sql", "win"],
        ["sql", "win"],
        ["  SQL", "struggling"],
      ],
    },
  ];

  describe("the dashboard's stats from aggregates", () => {
    it("equal the count over every session and mark (an empty history too)", async () => {
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      for (const s of HISTORY) await ended(s);
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      const stats = await study.history.stats(NOW);
      expect(stats.streak.longest).toBeGreaterThanOrEqual(4);
      expect(stats.topics.map((t) => t.topic)).toContain("Closures");
    });

    it("keep up as sessions end after the totals were built, and count a live session up to now", async () => {
      for (const s of HISTORY.slice(0, 6)) await ended(s);
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      for (const s of HISTORY.slice(6)) await ended(s);
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      // A live session (the fake transport): counted from its start up to the time asked about.
      await core.service.start({ ...START, energy: 6 });
      const later = new Date(Date.now() + 40 * MIN);
      expectSameStats(await study.history.stats(later), await statsByScan(later));
      expect((await study.history.stats(later)).streak.studiedToday).toBe(true);
    });

    it("follow marks taken back and edited, even the one a topic group is named after", async () => {
      const first = crypto.randomUUID();
      await ended({ startedAt: local(2026, 11, 20, 9), minutes: 30, marks: [["Monads", "win"]] });
      const id = await ended({ startedAt: local(2026, 11, 21, 9), minutes: 30 });
      // Marks on a session the way the study page writes and takes them back (the triggers keep count).
      const mark = (topic: string, status: string, markId = crypto.randomUUID()) =>
        core.db.topicMark.create({ data: { id: markId, sessionId: id, topic, status } });
      await mark(" monads", "struggling", first);
      await mark("MONADS", "win");
      await mark("functors", "learning");
      const undone = await mark("functors", "win");
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      await core.db.topicMark.delete({ where: { id: undone.id } });
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      // The group "monads" was named after its oldest mark: take that one's topic away.
      const oldest = await core.db.topicMark.findFirst({ where: { topic: "Monads" } });
      await core.db.topicMark.update({ where: { id: oldest!.id }, data: { topic: "applicatives" } });
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      await core.db.topicMark.update({ where: { id: first }, data: { status: "win" } });
      await core.db.topicMark.update({ where: { id: first }, data: { status: "win" } });
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      await core.db.topicMark.deleteMany({ where: { topic: "applicatives" } });
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      const tallies = await core.db.$queryRawUnsafe<{ topic: string }[]>(`SELECT "topic" FROM "topic_mark_tallies" ORDER BY "topic"`);
      expect(tallies.map((t) => t.topic)).toEqual([" monads", "MONADS", "functors"].sort());
    });

    it("count the streak's runs in the database: gaps, ties, the longest between others, one up to today", async () => {
      // Runs of 2, 5, 2, 1 and 3 days (the last up to today), a day apart or more.
      const runs: readonly (readonly [month: number, day: number, days: number])[] = [
        [6, 1, 2],
        [6, 10, 5],
        [8, 3, 2],
        [10, 30, 1],
        [11, 29, 3],
      ];
      for (const [month, day, days] of runs) {
        for (let i = 0; i < days; i++) await ended({ startedAt: local(2026, month, day + i, 9), minutes: 20 });
      }
      const stats = await study.history.stats(NOW);
      expect(stats.streak).toEqual({ current: 3, longest: 5, studiedToday: true });
      expectSameStats(stats, await statsByScan(NOW));
      // Tomorrow the run is still alive; the day after, it is broken.
      for (const days of [1, 2]) {
        const later = new Date(NOW.getTime() + days * 24 * 60 * MIN);
        expectSameStats(await study.history.stats(later), await statsByScan(later));
      }
    });

    it("keep the streak's runs between reads, and count them again when either of two hosts ends a session or builds the totals", async () => {
      // Each host keeps the runs it read while the totals' version stays; the other host's ends and
      // builds move it. 60 sessions on random days of the last ten weeks, some failed starts (no
      // focus), each ended by one host and read by both, compared with the count over every row.
      const other = makeHostCore(core, "host-b");
      const otherStudy = new StudyLog(other.db, other.service, other.service.events, { log: () => undefined });
      let seed = 20_9;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      try {
        for (let i = 0; i < 60; i++) {
          const day = Math.floor(random() * 70);
          const minutes = random() < 0.2 ? 0 : 10 + Math.floor(random() * 50);
          await ended({ startedAt: new Date(NOW.getTime() - day * 24 * 60 * MIN - 2 * 60 * MIN), minutes }, random() < 0.5 ? core : other);
          if (i === 40) await core.db.$executeRawUnsafe(`DELETE FROM "history_aggregates"`);
          const expected = await statsByScan(NOW);
          for (const s of [study, otherStudy, study]) expectSameStats(await s.history.stats(NOW), expected);
        }
        expect((await study.history.stats(NOW)).streak.longest).toBeGreaterThan(3);
      } finally {
        otherStudy.stop();
        await other.close();
      }
    });

    it("are built again when the server's time zone changes (days are local days)", async () => {
      for (const s of HISTORY) await ended(s);
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
      const before = process.env.TZ;
      try {
        process.env.TZ = "Pacific/Auckland";
        expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
        const built = await core.db.$queryRawUnsafe<{ time_zone: string }[]>(`SELECT "time_zone" FROM "history_aggregates"`);
        expect(built).toEqual([{ time_zone: "Pacific/Auckland" }]);
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    });

    it("count sessions that ended before the totals were first built (another process, an old database)", async () => {
      for (const s of HISTORY) await ended(s);
      await core.db.$executeRawUnsafe(`DELETE FROM "history_aggregates"`);
      await core.db.$executeRawUnsafe(`UPDATE "study_day_totals" SET "focus_ms" = 1`);
      expectSameStats(await study.history.stats(NOW), await statsByScan(NOW));
    });
  });

  describe("the history list", () => {
    /** What the list read before issue 20 (every column, the transcript too), minus the transcript. */
    const byPrisma = async (filter: { topic?: string; ids?: string[]; take?: number }) =>
      (
        await core.db.studySession.findMany({
          where: { ...(filter.topic ? { topic: filter.topic } : {}), ...(filter.ids ? { id: { in: filter.ids } } : {}) },
          orderBy: { startedAt: "desc" },
          take: filter.take ?? 100,
        })
      ).map(({ transcript: _transcript, ...row }) => row);

    it("reads the same rows as Prisma, newest first, without transcripts", async () => {
      const ids: string[] = [];
      for (const [i, s] of HISTORY.entries()) ids.push(await ended({ ...s, topic: i % 3 === 0 ? "graphs" : s.topic }));
      await core.service.store.checkpoint(ids[3]!, "a transcript ".repeat(1000), NOW);
      const filters = [
        {},
        { take: 5 },
        { topic: "graphs" },
        { topic: "graphs", take: 2 },
        { topic: "nothing like it" },
        { ids: [ids[1]!, ids[3]!, ids[7]!, "not-a-session"] },
        { ids: [ids[1]!, ids[3]!, ids[7]!], topic: "graphs" },
        { ids: [] },
      ];
      for (const filter of filters) {
        const rows = await core.service.store.history(filter);
        expect(rows, JSON.stringify(filter)).toEqual(await byPrisma(filter));
        expect(rows.every((r) => !("transcript" in r))).toBe(true);
      }
      const views = await core.service.history({});
      expect(views.find((v) => v.id === ids[3])?.hasTranscript).toBe(true);
    });

    it("lists recent topics as Prisma's distinct did", async () => {
      for (const [i, s] of HISTORY.entries()) await ended({ ...s, topic: ["a", "B", "a ", "c", "B"][i % 5]! });
      const distinct = await core.db.studySession.findMany({
        distinct: ["topic"],
        select: { topic: true },
        orderBy: { startedAt: "desc" },
      });
      expect(await study.history.recentTopics(50)).toEqual(distinct.map((r) => r.topic));
      expect(await study.history.recentTopics(2)).toEqual(distinct.slice(0, 2).map((r) => r.topic));
    });
  });

  describe("the history list's search", () => {
    /** Every session with a matching document, newest first: what the list showed before issue 20. */
    const byScan = async (words: string, filter: { topic?: string; limit: number }) => {
      const match =
        provider === "postgresql"
          ? Prisma.sql`SELECT d.session_id FROM search_docs d WHERE d.text ILIKE ${`%${words}%`}`
          : Prisma.sql`SELECT d.session_id FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid WHERE search_fts MATCH ${`"${words}"`}`;
      const rows = await core.db.$queryRaw<{ id: string }[]>(
        Prisma.sql`SELECT s.id FROM study_sessions s WHERE s.id IN (${match})
           ${filter.topic ? Prisma.sql`AND s.topic = ${filter.topic}` : Prisma.empty} ORDER BY s.started_at DESC LIMIT ${filter.limit}`,
      );
      return rows.map((r) => r.id);
    };

    it("finds the newest sessions with a match past a page of matching documents, early and late documents too", async () => {
      // With a topic, PostgreSQL looks among its newest sessions first, then through the whole index: a
      // window of 3 takes the second way for nearly every case here, the default the first for many.
      // Without one, it checks the sessions the pages did not name one by one (the default), or reads
      // a range of the index when more than 3 are left (the second).
      const indexes = [new SearchIndex(core.db), new SearchIndex(core.db, 3, 3)];
      const ids: string[] = [];
      // 700 sessions, each with its topic indexed as it is written: more matches of "basics" than a page.
      for (let i = 0; i < 700; i++) ids.push(crypto.randomUUID());
      await hourlyEndedSessions(core, ids, (i) => (i % 3 === 0 ? "recursion basics" : i % 3 === 1 ? "graphs basics" : "closures basics"));
      // The oldest row started last (a clock set right later): its only document is the oldest one.
      await core.db.studySession.update({ where: { id: ids[0]! }, data: { startedAt: NOW } });
      // Transcripts indexed late (after a crash), oldest sessions last: their documents are the newest.
      for (const i of [5, 400, 1, 698, 2]) {
        await indexes[0]!.add(ids[i]!, [{ kind: "transcript", atMs: 0, text: "tail recursion again", createdAt: NOW }]);
      }
      for (const filter of [
        { limit: 50 },
        { limit: 100 },
        { limit: 1 },
        { limit: 300 },
        { limit: 50, topic: "graphs basics" },
        { limit: 50, topic: "recursion basics" },
      ]) {
        for (const words of ["basics", "recursion", "tail recursion", "graphs", "zqxjvk", "ion aga"]) {
          const expected = await byScan(words, filter);
          for (const index of indexes) {
            expect(await index.sessionIds(words, filter), `${words} ${JSON.stringify(filter)}`).toEqual(expected);
          }
        }
      }
    }, 120_000);

    it("finds a recent session whose only match is an old document, as in a history indexed by kind", async () => {
      // As the migration that built the index (or a bulk import) writes them: every session's topic
      // first, then every transcript. Session 650's only "closures" is its topic, far below the newest
      // page of matches, and newer than the 50th newest session the pages name.
      const indexes = [new SearchIndex(core.db), new SearchIndex(core.db, 3, 3)];
      const ids = Array.from({ length: 700 }, () => crypto.randomUUID());
      await hourlyEndedSessions(core, ids, (i) => (i === 650 ? "closures, the hard part" : `session ${i}`));
      for (const [i, id] of ids.entries()) {
        if (i !== 650) await indexes[0]!.add(id, [{ kind: "transcript", atMs: 0, text: `closures, part ${i}`, createdAt: NOW }]);
      }
      for (const limit of [1, 10, 50, 60, 100]) {
        const expected = await byScan("closures", { limit });
        if (limit >= 50) expect(expected).toContain(ids[650]);
        for (const index of indexes) expect(await index.sessionIds("closures", { limit }), `limit ${limit}`).toEqual(expected);
      }
    }, 120_000);
  });
});
