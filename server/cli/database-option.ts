// `--database` on every command that opens the database, and what the command says when it cannot.
import { DatabaseTargetError, describeTarget, resolveDatabaseTarget, type DatabaseTarget } from "../db/database-target.ts";
import { DbUnavailable, classifyDbFault, postgresOpenProblem } from "../db/db-faults.ts";
import { cliRefusal } from "./cli-errors.ts";
import { UsageError, type OptionSpec } from "./options.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const DATABASE_OPTION: OptionSpec = {
  name: "database",
  kind: "string",
  value: "URL",
  description:
    "A PostgreSQL URL (postgresql://user@host/db) shared by several machines, or a SQLite file (default $DATABASE_URL when it is a PostgreSQL URL, else studyloop.db in the data directory).",
};

/** --database and DATABASE_URL as a target; a bad value is a usage error (exit 2) with a sentence. */
export function databaseTargetOrRefuse(flag: string | undefined, dataDir: string, env: Env = process.env): DatabaseTarget {
  try {
    return resolveDatabaseTarget(flag, env, dataDir);
  } catch (error) {
    if (error instanceof DatabaseTargetError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * A database that could not be opened, as the command line says it: a setup problem (no such
 * database, sign-in refused) is exit 2 with what to fix; a server that cannot be reached is exit 75
 * (try again later); anything else is returned as it is.
 */
export function openFailureRefusal(error: unknown, target: DatabaseTarget): unknown {
  const problem = postgresOpenProblem(error, describeTarget(target));
  if (problem) return new UsageError(problem);
  const fault = classifyDbFault(error);
  if (fault) return cliRefusal(new DbUnavailable(fault, "open its database", error));
  return error;
}
