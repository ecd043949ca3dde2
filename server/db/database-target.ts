// Where StudyLoop's data lives: a SQLite file (the default, one machine) or a PostgreSQL database
// (several machines, docs/deploy.md). Pure: decided from --database, DATABASE_URL and the data directory.
import path from "node:path";
import { DATABASE_FILE_NAME } from "../config/paths.ts";

export type Provider = "sqlite" | "postgresql";
export type DatabaseTarget = { provider: "sqlite"; file: string } | { provider: "postgresql"; url: string };

/** A --database or DATABASE_URL StudyLoop cannot use; the message is one sentence for the learner. */
export class DatabaseTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseTargetError";
  }
}

const POSTGRES_SCHEME = /^postgres(ql)?:\/\//i;
const ANY_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

function postgresTarget(url: string, from: string): DatabaseTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseTargetError(
      `${from} is not a PostgreSQL URL StudyLoop can read; write it as postgresql://user:password@host:5432/database.`,
    );
  }
  // A database name, or a socket directory in ?host=: without either there is nothing to connect to.
  if (!parsed.hostname && !parsed.searchParams.get("host")) {
    throw new DatabaseTargetError(`${from} names no host; write it as postgresql://user:password@host:5432/database.`);
  }
  return { provider: "postgresql", url };
}

/**
 * --database postgresql://… (or postgres://…) → PostgreSQL; --database <file path> or file:<path> →
 * that SQLite file; no flag → DATABASE_URL when it is a PostgreSQL URL, else <dataDir>/studyloop.db.
 * A DATABASE_URL of another kind (Prisma projects often set file:./dev.db) is left alone.
 */
export function resolveDatabaseTarget(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
): DatabaseTarget {
  if (flag !== undefined) {
    const value = flag.trim();
    if (value === "") throw new DatabaseTargetError("--database needs a value: a PostgreSQL URL (postgresql://…) or a SQLite file path.");
    if (POSTGRES_SCHEME.test(value)) return postgresTarget(value, "--database");
    if (/^file:/i.test(value)) {
      const file = value.replace(/^file:(\/\/)?/i, "");
      if (!file) throw new DatabaseTargetError("--database file: names no file; give the SQLite file's path.");
      return { provider: "sqlite", file: path.resolve(file) };
    }
    const scheme = ANY_SCHEME.exec(value)?.[1];
    if (scheme) {
      throw new DatabaseTargetError(
        `--database ${scheme}:// is not a database StudyLoop can use; give a PostgreSQL URL (postgresql://…) or a SQLite file path.`,
      );
    }
    return { provider: "sqlite", file: path.resolve(value) };
  }
  const envUrl = env.DATABASE_URL?.trim();
  if (envUrl && POSTGRES_SCHEME.test(envUrl)) return postgresTarget(envUrl, "DATABASE_URL");
  return { provider: "sqlite", file: path.join(dataDir, DATABASE_FILE_NAME) };
}

/** The --database value that names this target again (for the processes a command starts). */
export function databaseArgument(target: DatabaseTarget): string {
  return target.provider === "sqlite" ? target.file : target.url;
}

/** For logs and messages: the file, or the URL without its password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.provider === "sqlite") return target.file;
  try {
    const url = new URL(target.url);
    if (url.password) url.password = "***";
    for (const key of ["password", "sslpassword"]) if (url.searchParams.has(key)) url.searchParams.set(key, "***");
    return url.toString();
  } catch {
    return "postgresql://(unreadable URL)";
  }
}
