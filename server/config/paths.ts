// Where StudyLoop keeps the learner's data: one data directory per learner.
import os from "node:os";
import path from "node:path";

export const DATABASE_FILE_NAME = "studyloop.db";
export const CONFIG_FILE_NAME = "studyloop.config.json";

/** Resolves the data directory: --data-dir, then STUDYLOOP_DATA_DIR, then XDG, then ~/.local/share. */
export function resolveDataDir(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = os.homedir(),
): string {
  if (flag) return path.resolve(flag);
  if (env.STUDYLOOP_DATA_DIR) return path.resolve(env.STUDYLOOP_DATA_DIR);
  if (env.XDG_DATA_HOME) return path.resolve(env.XDG_DATA_HOME, "studyloop");
  return path.join(home, ".local", "share", "studyloop");
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE_NAME);
}

/** Prisma wants an absolute URL containing "://" (Studio refuses relative file: URLs). */
export function databaseUrl(dataDir: string): string {
  return `file://${databaseFile(dataDir)}`;
}

export function sessionsDir(dataDir: string): string {
  return path.join(dataDir, "sessions");
}

/** The repository root: migrations, the Next app and the build live here. */
// (Route handlers import this module through Next's bundle, where import.meta.dirname is undefined.)
export const PROJECT_ROOT = path.resolve(import.meta.dirname ?? process.cwd(), "..", "..");
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");
