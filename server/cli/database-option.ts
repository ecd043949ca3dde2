// `--data-dir` and `--database` on every command (the README says every command takes them), and
// what a command says when its database cannot be opened.
import { DatabaseTargetError, describeTarget, resolveDatabaseTarget, type DatabaseTarget } from "../db/database-target.ts";
import { DbUnavailable, classifyDbFault, postgresOpenProblem } from "../db/db-faults.ts";
import { cliRefusal } from "./cli-errors.ts";
import { UsageError, type OptionSpec, type ParsedOptions } from "./options.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const DATA_DIR_OPTION: OptionSpec = {
  name: "data-dir",
  kind: "string",
  value: "D",
  description:
    "Where the database and session folders live (default $STUDYLOOP_DATA_DIR, else $XDG_DATA_HOME/studyloop, else ~/.local/share/studyloop).",
};

export const DATABASE_OPTION: OptionSpec = {
  name: "database",
  kind: "string",
  value: "URL",
  description:
    "A PostgreSQL URL (postgresql://user@host/db) shared by several machines, or a SQLite file (default $DATABASE_URL when it is a PostgreSQL URL, else studyloop.db in the data directory).",
};

/** Both, in the order --help lists them. */
export const DATA_OPTIONS = [DATA_DIR_OPTION, DATABASE_OPTION] as const;

/** --data-dir and --database as given on the command line; a key is present only when its option was. */
export interface DataChoice {
  readonly dataDir?: string;
  readonly database?: string;
}

/**
 * The data options of a parsed command, checked: an empty --data-dir, or a --database that names no
 * database StudyLoop can use, is a usage error (exit 2) with a sentence, before anything is opened. Pure.
 */
export function dataChoice(options: ParsedOptions): DataChoice {
  const dataDir = options["data-dir"];
  const database = options.database;
  if (typeof dataDir === "string" && dataDir.trim() === "")
    throw new UsageError("--data-dir is empty: give the data directory's path, or leave the option out for the usual one.");
  if (typeof database === "string") databaseTargetOrRefuse(database, "/", {});
  return {
    ...(typeof dataDir === "string" ? { dataDir } : {}),
    ...(typeof database === "string" ? { database } : {}),
  };
}

/** Whether the command line named a data directory or a database (a command then reads it itself). */
export function choosesData(choice: DataChoice): boolean {
  return choice.dataDir !== undefined || choice.database !== undefined;
}

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
