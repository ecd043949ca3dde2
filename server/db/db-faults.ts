// Database faults a learner can do something about, recognised from SQLite's codes (directly from
// better-sqlite3, or inside Prisma's driver-adapter error) and told in one sentence each; plus the
// retry that rides out a short lock. Pure apart from the retry's waiting.

export type DbFaultKind = "locked" | "disk-full" | "missing-or-damaged";

const BRAND = Symbol.for("studyloop.DbUnavailable");

/** The database refused an operation for a reason outside StudyLoop: nothing of it was written. */
export class DbUnavailable extends Error {
  readonly [BRAND] = true;
  readonly code = "db-unavailable" as const;

  constructor(
    readonly kind: DbFaultKind,
    readonly operation: string,
    readonly cause: unknown,
  ) {
    super(dbFaultSentence(kind, operation));
    this.name = "DbUnavailable";
  }
}

/** By brand, not instanceof: route handlers are bundled apart from the custom server. */
export function isDbUnavailable(error: unknown): error is DbUnavailable {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** SQLite result codes (primary or extended names) by what they mean for the learner. */
const KINDS: readonly [RegExp, DbFaultKind][] = [
  [/^SQLITE_(BUSY|LOCKED)/, "locked"],
  [/^SQLITE_FULL/, "disk-full"],
  [/^SQLITE_(CANTOPEN|CORRUPT|NOTADB|READONLY_DBMOVED|IOERR)/, "missing-or-damaged"],
];

/** The SQLite code behind an error, wherever the layer above put it. */
export function sqliteCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } }; cause?: unknown };
  if (typeof e.code === "string" && e.code.startsWith("SQLITE_")) return e.code;
  const adapter = e.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof adapter === "string") return adapter;
  if (e.cause && e.cause !== error) return sqliteCode(e.cause);
  return null;
}

/** Which fault an error is; null for anything else (a bug, a constraint: those are not faults). */
export function classifyDbFault(error: unknown): DbFaultKind | null {
  if (isDbUnavailable(error)) return error.kind;
  const code = sqliteCode(error);
  if (code) return KINDS.find(([pattern]) => pattern.test(code))?.[1] ?? null;
  // No SQLite code: the file system said it first (ENOSPC while growing the journal, ENOENT on open).
  const errno = (error as { code?: unknown } | null)?.code;
  if (errno === "ENOSPC" || errno === "EDQUOT") return "disk-full";
  if (errno === "ENOENT") return "missing-or-damaged";
  return null;
}

export function dbFaultSentence(kind: DbFaultKind, operation: string): string {
  switch (kind) {
    case "locked":
      return `StudyLoop could not ${operation}: another program is holding the database locked (a \`sqlite3\` shell, Prisma Studio or a backup tool). Close it and try again; nothing was lost.`;
    case "disk-full":
      return `StudyLoop could not ${operation}: the disk that holds the data directory is full. Free some space and try again; nothing was lost.`;
    case "missing-or-damaged":
      return `StudyLoop could not ${operation}: the database file is missing or damaged (was it moved or deleted?). Put it back, or restart StudyLoop to start a new one; what was saved before is in the file.`;
  }
}

/** A known fault as DbUnavailable; anything else unchanged. */
export function asDbFault(error: unknown, operation: string): unknown {
  const kind = classifyDbFault(error);
  return kind && !isDbUnavailable(error) ? new DbUnavailable(kind, operation, error) : error;
}

export interface RetryOptions {
  /** Give up on a lock after this long in all, in ms (each attempt also waits the busy timeout). */
  readonly deadlineMs?: number;
  /** Pause between attempts, in ms: lets the event loop serve others while the lock is held. */
  readonly pauseMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** How long a write keeps retrying a held lock in all (each attempt also waits client.ts's busy timeout). */
export const LOCK_RETRY_DEADLINE_MS = 4_000;

/**
 * Runs a database operation; a lock is retried until the deadline, and every known fault leaves as
 * DbUnavailable naming `operation`. SQLite rolls a failed statement or transaction back, so a retry
 * never doubles a write.
 */
export async function withDb<T>(operation: string, fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + (options.deadlineMs ?? LOCK_RETRY_DEADLINE_MS);
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      const kind = classifyDbFault(error);
      if (kind === "locked" && now() < deadline) {
        await sleep(options.pauseMs ?? 150);
        continue;
      }
      throw asDbFault(error, operation);
    }
  }
}
