// Database faults a learner can do something about, recognised from SQLite's codes (directly from
// better-sqlite3, or inside Prisma's driver-adapter error) or PostgreSQL's (SQLSTATE from `pg` or the
// adapter, and the socket errors of a server that went away) and told in one sentence each; plus the
// retry that rides out a short lock or a write conflict. Pure apart from the retry's waiting.

export type DbFaultKind = "locked" | "conflict" | "disk-full" | "missing-or-damaged" | "unreachable";

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

/**
 * PostgreSQL SQLSTATEs by what they mean for the learner. Serialization failure, deadlock and a lock
 * not available roll the statement (and its transaction) back: retried like SQLite's busy. A server
 * shutting down (57P01-57P03), a connection failure (08xxx) or too many connections (53300): the
 * database cannot be reached for now.
 */
const PG_KINDS: readonly [RegExp, DbFaultKind][] = [
  [/^(40001|40P01|55P03)$/, "conflict"],
  [/^(57P0[123]|08...|53300)$/, "unreachable"],
];

/** Socket errors of a database host that is down, unreachable or gone mid-query. */
const UNREACHABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
/** What `pg` says, without a code, when the server closed the socket or never answered. */
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;
/** Prisma's own codes for a server it cannot reach (P1001, P1002) or a closed connection (P1017). */
const UNREACHABLE_PRISMA = new Set(["P1001", "P1002", "P1017"]);

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The PostgreSQL SQLSTATE behind an error (from `pg` itself or inside Prisma's adapter error). */
export function postgresCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const e = error as {
    code?: unknown;
    clientVersion?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: unknown;
  };
  const adapter = e.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof adapter === "string" && SQLSTATE.test(adapter)) return adapter;
  // Prisma's own codes (P2002, P2034) have the same shape as a SQLSTATE: only `pg`'s errors count.
  if (typeof e.code === "string" && SQLSTATE.test(e.code) && e.clientVersion === undefined) return e.code;
  if (e.cause && e.cause !== error) return postgresCode(e.cause);
  return null;
}

function unreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } }; cause?: unknown };
  if (typeof e.code === "string" && (UNREACHABLE_ERRNO.has(e.code) || UNREACHABLE_PRISMA.has(e.code))) return true;
  if (e.meta?.driverAdapterError?.cause?.kind === "DatabaseNotReachable") return true;
  if (typeof e.message === "string" && UNREACHABLE_MESSAGE.test(e.message)) return true;
  // AggregateError (every address of a host refused) and wrapped causes.
  const inner = (error as { errors?: unknown[] }).errors;
  if (Array.isArray(inner) && inner.some((x) => unreachable(x, depth + 1))) return true;
  return e.cause !== undefined && e.cause !== error && unreachable(e.cause, depth + 1);
}

/** Which fault an error is; null for anything else (a bug, a constraint: those are not faults). */
export function classifyDbFault(error: unknown): DbFaultKind | null {
  if (isDbUnavailable(error)) return error.kind;
  const code = sqliteCode(error);
  if (code?.startsWith("SQLITE_")) return KINDS.find(([pattern]) => pattern.test(code))?.[1] ?? null;
  const pgCode = postgresCode(error);
  if (pgCode) return PG_KINDS.find(([pattern]) => pattern.test(pgCode))?.[1] ?? null;
  if (unreachable(error)) return "unreachable";
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
    case "conflict":
      return `StudyLoop could not ${operation}: another StudyLoop was changing the same study records at that moment. Try again; nothing was lost.`;
    case "unreachable":
      return `StudyLoop could not ${operation}: the database server cannot be reached (is PostgreSQL running, and can this machine reach it?). What was saved before is safe there; try again once it is back.`;
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
      if ((kind === "locked" || kind === "conflict") && now() < deadline) {
        await sleep(options.pauseMs ?? 150);
        continue;
      }
      throw asDbFault(error, operation);
    }
  }
}

/**
 * Why a PostgreSQL database could not be opened at start-up when the fix is in the setup, not in
 * waiting (the database, the sign-in, the role's rights); null for anything else. `where` is the
 * database as describeTarget shows it (no password).
 */
export function postgresOpenProblem(error: unknown, where: string): string | null {
  switch (postgresCode(error)) {
    case "3D000":
      return `The database in ${where} does not exist: create it (docs/deploy.md, "Several machines") or correct the name in --database or DATABASE_URL.`;
    case "28P01":
    case "28000":
      return `PostgreSQL refused to sign in to ${where}: check the user and password in --database or DATABASE_URL (or in ~/.pgpass).`;
    case "42501":
      return `The PostgreSQL role in ${where} may not create or change StudyLoop's tables: make it the database's owner (docs/deploy.md, "Several machines").`;
    default:
      return null;
  }
}
