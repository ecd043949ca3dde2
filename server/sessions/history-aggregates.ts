// What the dashboard's charts read instead of every session and every mark (issue 20, "flat in
// history size"): focus per local day of ended sessions (study_day_totals, written here as the session
// store ends a session) and marks counted per topic (topic_mark_tallies, kept by triggers on
// topic_marks, see prisma/migrations/20261202100000_history_aggregates). The open sessions, at most a
// few rows, are added at read time as before. Reads go through the read connection; writes through
// the store's Prisma client, inside the transaction that ends the session.
import type { Statement } from "better-sqlite3";
import type { Db, ReadConnection } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import { withDb } from "../db/db-faults.ts";
import { focusByDay, type TopicCount } from "../study/stats.ts";
import { readTimer, timerStateOf, type TimerRow } from "../../common/study/timer.ts";
import { SESSION_ROW_SELECT, sessionRowFrom } from "./session-rows.ts";

export interface HistoryAggregates {
  /** Focus ms per local day ("2026-03-02"), ended sessions and open ones (up to now) together. */
  readonly focusByDay: Map<string, number>;
  /** Marks per exact topic, as the triggers on topic_marks count them. */
  readonly topics: readonly TopicCount[];
}

/** The time zone local days are counted in: the process's (TZ), as stats.ts's dayKey uses. */
export function currentTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
}

/** A session's focus per local day, as the charts have always counted it (stats.ts). Pure. */
export function sessionFocusByDay(row: TimerRow, now: Date): Map<string, number> {
  return focusByDay([
    { startedAt: row.startedAt, endedAt: row.endedAt ?? now, focusMs: readTimer(timerStateOf(row), now.getTime()).focusMs },
  ]);
}

export class HistoryAggregateStore {
  private building: Promise<void> | null = null;
  private readonly builtIn: Statement<[], { time_zone: string }>;
  private readonly days: Statement<[], { day: string; focus_ms: number }>;
  private readonly openTimers: Statement<[], unknown[]>;
  private readonly tallies: Statement<
    [],
    { topic: string; first_mark: number; wins: number; struggles: number; learning: number; insights: number }
  >;

  constructor(
    private readonly db: Db,
    reads: ReadConnection,
    private readonly timeZone: () => string = currentTimeZone,
  ) {
    this.builtIn = reads.prepare(`SELECT "time_zone" FROM "history_aggregates" WHERE "id" = 1`);
    this.days = reads.prepare(`SELECT "day", "focus_ms" FROM "study_day_totals"`);
    this.openTimers = reads.prepare<[], unknown[]>(`SELECT ${SESSION_ROW_SELECT} FROM "study_sessions" WHERE "ended_at" IS NULL`).raw();
    this.tallies = reads.prepare(`SELECT "topic", "first_mark", "wins", "struggles", "learning", "insights" FROM "topic_mark_tallies"`);
  }

  /** Builds the day totals when they never were (or the time zone changed since); one build at a time. */
  async ensureBuilt(): Promise<void> {
    if (this.builtIn.get()?.time_zone === this.timeZone()) return;
    this.building ??= this.rebuild().finally(() => (this.building = null));
    await this.building;
  }

  /** The charts' figures: built first when they never were (or the time zone changed since). */
  async read(now: Date): Promise<HistoryAggregates> {
    await this.ensureBuilt();
    const byDay = new Map(this.days.all().map((r) => [r.day, r.focus_ms]));
    for (const values of this.openTimers.all()) {
      for (const [day, ms] of sessionFocusByDay(sessionRowFrom(values), now)) byDay.set(day, (byDay.get(day) ?? 0) + ms);
    }
    const topics = this.tallies.all().map((r) => ({
      topic: r.topic,
      firstMark: r.first_mark,
      wins: r.wins,
      struggles: r.struggles,
      learning: r.learning,
      insights: r.insights,
    }));
    return { focusByDay: byDay, topics };
  }

  /**
   * Adds a session that has just ended to the day totals, inside the transaction that ended it (so
   * the write lock is held: a rebuild in another process runs wholly before or after). Nothing to do
   * while the totals are not built: the build will count it.
   */
  async sessionEnded(tx: Prisma.TransactionClient, id: string): Promise<void> {
    const built = await tx.$queryRawUnsafe<{ time_zone: string }[]>(`SELECT "time_zone" FROM "history_aggregates" WHERE "id" = 1`);
    if (built[0]?.time_zone !== this.timeZone()) return;
    const row = await tx.studySession.findUnique({ where: { id }, select: timerSelect });
    if (!row?.endedAt) return;
    for (const [day, ms] of sessionFocusByDay(row, row.endedAt)) {
      await tx.$executeRawUnsafe(
        `INSERT INTO "study_day_totals"("day", "focus_ms") VALUES (?, ?) ON CONFLICT("day") DO UPDATE SET "focus_ms" = "focus_ms" + excluded."focus_ms"`,
        day,
        ms,
      );
    }
  }

  /** Builds the day totals from every ended session, in one transaction. */
  async rebuild(): Promise<void> {
    const timeZone = this.timeZone();
    await withDb(
      "count the focus per day",
      () =>
        this.db.$transaction(
          async (tx) => {
            // A write first: the lock is taken before the sessions are read, so no end slips between.
            await tx.$executeRawUnsafe(`DELETE FROM "study_day_totals"`);
            const rows = await tx.studySession.findMany({ where: { endedAt: { not: null } }, select: timerSelect });
            const byDay = new Map<string, number>();
            for (const row of rows) {
              for (const [day, ms] of sessionFocusByDay(row, row.endedAt!)) byDay.set(day, (byDay.get(day) ?? 0) + ms);
            }
            for (const [day, ms] of byDay) {
              await tx.$executeRawUnsafe(`INSERT INTO "study_day_totals"("day", "focus_ms") VALUES (?, ?)`, day, ms);
            }
            await tx.$executeRawUnsafe(
              `INSERT INTO "history_aggregates"("id", "time_zone", "built_at") VALUES (1, ?, ?) ON CONFLICT("id") DO UPDATE SET "time_zone" = excluded."time_zone", "built_at" = excluded."built_at"`,
              timeZone,
              new Date().toISOString(),
            );
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
