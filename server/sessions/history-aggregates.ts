// What the dashboard's charts read instead of every session and every mark (issue 20, "flat in
// history size"): focus per local day of ended sessions (study_day_totals, written here as the session
// store ends a session) and marks counted per topic (topic_mark_tallies, kept by triggers on
// topic_marks, see prisma/migrations/20261202100000_history_aggregates). The open sessions, at most a
// few rows, are added at read time as before. Reads go through SQLite's read connection (Prisma on
// PostgreSQL); writes through the store's Prisma client, inside the transaction that ends the session.
import type { Statement } from "better-sqlite3";
import type { Db, ReadConnection } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { withDb } from "../db/db-faults.ts";
import { providerOf } from "../db/provider-of.ts";
import { dayKey, dayNumber, focusByDay, heatmapStart, withOpenDays, type DayRun, type TopicCount } from "../../common/study/stats.ts";
import { readTimer, timerStateOf, type TimerRow } from "../../common/study/timer.ts";
import type { SessionReads } from "./session-reads.ts";

export interface HistoryAggregates {
  /** Focus ms per local day ("2026-03-02") from the heatmap's first day on, ended and open sessions together. */
  readonly focusByDay: Map<string, number>;
  /** Every run of studied days that reaches yesterday or later, the open sessions' days merged in (the streak). */
  readonly recentRuns: readonly DayRun[];
  /** The longest run of studied days of the ended sessions, wherever it lies. */
  readonly longestRun: number;
  /** Marks per exact topic, as the triggers on topic_marks count them. */
  readonly topics: readonly TopicCount[];
}

let zoneOf: { tz: string | undefined; zone: string } | null = null;

/**
 * The time zone local days are counted in: the process's (TZ), as stats.ts's dayKey uses. Asked on
 * every chart read; a formatter costs ~1 ms to make, so the answer is kept while TZ stays the same.
 */
export function currentTimeZone(): string {
  const tz = process.env.TZ;
  if (zoneOf === null || zoneOf.tz !== tz) zoneOf = { tz, zone: Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC" };
  return zoneOf.zone;
}

/** A session's focus per local day, as the charts have always counted it (stats.ts). Pure. */
export function sessionFocusByDay(row: TimerRow, now: Date): Map<string, number> {
  return focusByDay([
    { startedAt: row.startedAt, endedAt: row.endedAt ?? now, focusMs: readTimer(timerStateOf(row), now.getTime()).focusMs },
  ]);
}

/** The day totals' build (null: never built): its time zone, and which state of the totals they are in. */
interface Built {
  readonly timeZone: string;
  /** The build's time and how many times the totals changed (ends, builds): a new one at every change. */
  readonly version: string;
}

/** The three small aggregate tables as the charts read them. */
interface AggregateReads {
  built(): Promise<Built | null>;
  /** The day totals from `since` ("2026-03-02") on. */
  days(since: string): Promise<{ day: string; focusMs: number }[]>;
  /** The runs of studied days that end on day `since` (dayNumber) or later, and the longest run. */
  runs(since: number): Promise<DayRun[]>;
  tallies(): Promise<TopicCount[]>;
}

/** SQLite: prepared on the read connection (the dashboard's hot path), no query layer. */
class SqliteAggregateReads implements AggregateReads {
  private readonly builtIn: Statement<[], { time_zone: string; built_at: unknown; days_version: number }>;
  private readonly dayRows: Statement<[string], { day: string; focus_ms: number }>;
  private readonly runRows: Statement<[number], { run_first: number; run_last: number }>;
  private readonly tallyRows: Statement<
    [],
    { topic: string; first_mark: number; wins: number; struggles: number; learning: number; insights: number }
  >;

  constructor(reads: ReadConnection) {
    this.builtIn = reads.prepare(`SELECT "time_zone", "built_at", "days_version" FROM "history_aggregates" WHERE "id" = 1`);
    this.dayRows = reads.prepare(`SELECT "day", "focus_ms" FROM "study_day_totals" WHERE "day" >= ?`);
    // julianday of a date is its midnight, N.5; 2440587.5 is 1970-01-01 (stats.ts's dayNumber).
    this.runRows = reads.prepare(runsSql(`CAST(julianday("day") - 2440587.5 AS INTEGER)`, "?"));
    this.tallyRows = reads.prepare(`SELECT "topic", "first_mark", "wins", "struggles", "learning", "insights" FROM "topic_mark_tallies"`);
  }
  async built(): Promise<Built | null> {
    const row = this.builtIn.get();
    return row ? { timeZone: row.time_zone, version: `${String(row.built_at)}/${row.days_version}` } : null;
  }
  async days(since: string): Promise<{ day: string; focusMs: number }[]> {
    return this.dayRows.all(since).map((r) => ({ day: r.day, focusMs: r.focus_ms }));
  }
  async runs(since: number): Promise<DayRun[]> {
    return this.runRows.all(since).map((r) => ({ first: r.run_first, last: r.run_last }));
  }
  async tallies(): Promise<TopicCount[]> {
    return this.tallyRows.all().map((r) => ({
      topic: r.topic,
      firstMark: r.first_mark,
      wins: r.wins,
      struggles: r.struggles,
      learning: r.learning,
      insights: r.insights,
    }));
  }
}

/** PostgreSQL: Prisma's query API (a round trip either way). */
class PrismaAggregateReads implements AggregateReads {
  constructor(private readonly db: Db) {}
  async built(): Promise<Built | null> {
    const row = await this.db.historyAggregate.findUnique({
      where: { id: 1 },
      select: { timeZone: true, builtAt: true, daysVersion: true },
    });
    return row ? { timeZone: row.timeZone, version: `${row.builtAt.getTime()}/${row.daysVersion}` } : null;
  }
  days(since: string): Promise<{ day: string; focusMs: number }[]> {
    return this.db.studyDayTotal.findMany({ where: { day: { gte: since } } });
  }
  async runs(since: number): Promise<DayRun[]> {
    const rows = await this.db.$queryRaw<{ run_first: number; run_last: number }[]>(
      Prisma.raw(runsSql(`("day"::date - DATE '1970-01-01')`, `${Math.floor(since)}`)),
    );
    return rows.map((r) => ({ first: r.run_first, last: r.run_last }));
  }
  async tallies(): Promise<TopicCount[]> {
    const rows = await this.db.topicMarkTally.findMany({ orderBy: [{ firstMark: "asc" }, { topic: "asc" }] });
    return rows.map(({ topic, firstMark, wins, struggles, learning, insights }) => ({
      topic,
      firstMark,
      wins,
      struggles,
      learning,
      insights,
    }));
  }
}

/**
 * Runs of consecutive studied days counted in the database (gaps and islands: a day's number minus
 * its rank is the same along a run), so the streak reads a few rows instead of every studied day:
 * the runs ending on `since` or later, and the longest. `dayNumber` is the SQL for stats.ts's
 * dayNumber of "day" (days since 1970-01-01); `since` a parameter or a literal integer.
 */
function runsSql(dayNumberSql: string, since: string): string {
  return `WITH "d" AS (SELECT ${dayNumberSql} AS "n" FROM "study_day_totals" WHERE "focus_ms" > 0),
    "r" AS MATERIALIZED (
      SELECT CAST(min("n") AS INTEGER) AS "run_first", CAST(max("n") AS INTEGER) AS "run_last"
      FROM (SELECT "n", "n" - row_number() OVER (ORDER BY "n") AS "g" FROM "d") AS "numbered" GROUP BY "g"
    )
    SELECT "run_first", "run_last" FROM "r" WHERE "run_last" >= ${since}
    UNION
    SELECT "run_first", "run_last" FROM (SELECT "run_first", "run_last" FROM "r" ORDER BY "run_last" - "run_first" DESC LIMIT 1) AS "longest"`;
}

/**
 * On PostgreSQL a rebuild and a session's end in another transaction (or on another host) take this
 * lock first, so an end is counted by the rebuild or added after it, never lost between (SQLite's
 * single writer gives the same order for free).
 */
const AGGREGATES_LOCK = 2026120301;

export class HistoryAggregateStore {
  private building: Promise<void> | null = null;
  private readonly aggregates: AggregateReads;
  private readonly postgres: boolean;
  /**
   * The last runs read and the totals' version read before them: counting the runs reads every studied
   * day (6,251 at 50,000 sessions: ~5 ms on SQLite, 17 ms of PostgreSQL's time under load), and they
   * change only with the day totals, which move days_version in the same transaction, whichever
   * process writes them.
   */
  private lastRuns: { version: string; since: number; runs: DayRun[] } | null = null;

  constructor(
    private readonly db: Db,
    /** SQLite's read-only connection; null on PostgreSQL. */
    reads: ReadConnection | null,
    /** The open rows (at most a few): their focus is added at read time. */
    private readonly sessions: Pick<SessionReads, "open">,
    private readonly timeZone: () => string = currentTimeZone,
  ) {
    this.aggregates = reads ? new SqliteAggregateReads(reads) : new PrismaAggregateReads(db);
    this.postgres = providerOf(db) === "postgresql";
  }

  /**
   * Builds the day totals when they never were (or the time zone changed since); one build at a time.
   * Their version as read before any read of the totals (null: this call built them).
   */
  async ensureBuilt(): Promise<string | null> {
    const built = await this.aggregates.built();
    if (built?.timeZone === this.timeZone()) return built.version;
    this.building ??= this.rebuild().finally(() => (this.building = null));
    await this.building;
    return null;
  }

  /** The charts' figures: built first when they never were (or the time zone changed since). */
  async read(now: Date): Promise<HistoryAggregates> {
    const version = await this.ensureBuilt();
    const open = await this.sessions.open();
    const openDays = new Map<string, number>();
    for (const row of open) {
      for (const [day, ms] of sessionFocusByDay(row, now)) openDays.set(day, (openDays.get(day) ?? 0) + ms);
    }
    // The open sessions' studied days join the stored runs they touch: read every run from the day
    // before the earliest of them (or from the day before yesterday: the current streak's).
    const studiedOpen = [...openDays].filter(([, ms]) => ms > 0).map(([day]) => dayNumber(day));
    const runsSince = Math.min(dayNumber(dayKey(now)) - 1, ...studiedOpen) - 1;
    const [days, runs, topics] = await Promise.all([
      this.aggregates.days(dayKey(heatmapStart(now))),
      this.runs(version, runsSince),
      this.aggregates.tallies(),
    ]);
    const byDay = new Map(days.map((r) => [r.day, r.focusMs]));
    for (const [day, ms] of openDays) byDay.set(day, (byDay.get(day) ?? 0) + ms);
    return { focusByDay: byDay, ...withOpenDays(runs, runsSince, studiedOpen), topics };
  }

  private async runs(version: string | null, since: number): Promise<DayRun[]> {
    const kept = this.lastRuns;
    if (version !== null && kept?.version === version && kept.since === since) return kept.runs;
    const runs = await this.aggregates.runs(since);
    this.lastRuns = version === null ? null : { version, since, runs };
    return runs;
  }

  /**
   * Adds a session that has just ended to the day totals, inside the transaction that ended it (so
   * the write lock is held: a rebuild in another process runs wholly before or after). Nothing to do
   * while the totals are not built: the build will count it.
   */
  async sessionEnded(tx: Prisma.TransactionClient, id: string): Promise<void> {
    if (this.postgres) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AGGREGATES_LOCK}::bigint)`;
    const built = await tx.historyAggregate.findUnique({ where: { id: 1 }, select: { timeZone: true } });
    if (built?.timeZone !== this.timeZone()) return;
    const row = await tx.studySession.findUnique({ where: { id }, select: timerSelect });
    if (!row?.endedAt) return;
    for (const [day, ms] of sessionFocusByDay(row, row.endedAt)) {
      await tx.$executeRaw`INSERT INTO "study_day_totals"("day", "focus_ms") VALUES (${day}, ${ms})
        ON CONFLICT("day") DO UPDATE SET "focus_ms" = "study_day_totals"."focus_ms" + excluded."focus_ms"`;
    }
    await tx.historyAggregate.update({ where: { id: 1 }, data: { daysVersion: { increment: 1 } } });
  }

  /** Builds the day totals from every ended session, in one transaction. */
  async rebuild(): Promise<void> {
    const timeZone = this.timeZone();
    await withDb(
      "count the focus per day",
      () =>
        this.db.$transaction(
          async (tx) => {
            // The lock first, so no end slips between the read of the sessions and the write of the
            // totals: SQLite's write lock (a write), PostgreSQL's advisory lock that ends also take.
            if (this.postgres) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AGGREGATES_LOCK}::bigint)`;
            await tx.studyDayTotal.deleteMany();
            const rows = await tx.studySession.findMany({ where: { endedAt: { not: null } }, select: timerSelect });
            const byDay = new Map<string, number>();
            for (const row of rows) {
              for (const [day, ms] of sessionFocusByDay(row, row.endedAt!)) byDay.set(day, (byDay.get(day) ?? 0) + ms);
            }
            await tx.studyDayTotal.createMany({ data: [...byDay].map(([day, focusMs]) => ({ day, focusMs })) });
            const builtAt = new Date();
            await tx.historyAggregate.upsert({
              where: { id: 1 },
              create: { id: 1, timeZone, builtAt },
              update: { timeZone, builtAt, daysVersion: { increment: 1 } },
            });
          },
          { timeout: 120_000 },
        ),
      {},
    );
  }
}

const timerSelect = {
  startedAt: true,
  endedAt: true,
  pausedAt: true,
  pausedMs: true,
  focusPlan: true,
  focusMinutes: true,
  breakMinutes: true,
  nudgesShown: true,
} as const;
