// What the history bench seeds, on either engine (history.ts for SQLite, history-postgres.ts for PostgreSQL).

export interface SeedResult {
  readonly sessions: number;
  readonly marks: number;
  readonly parked: number;
  readonly seconds: number;
  /** A recent ended session (its page is measured). */
  readonly recentId: string;
}

/** One seeded session and what the app would have written with it (snake_case: the tables' columns). */
export interface SeedSession {
  readonly session: Record<string, string | number | null>;
  readonly marks: readonly Record<string, string | null>[];
  readonly parked: readonly Record<string, string>[];
  /** What the summary trigger and the record indexer would have written (the trigger fires on UPDATE only). */
  readonly docs: readonly Record<string, string | number | null>[];
}
