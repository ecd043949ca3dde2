// Where StudyLoop keeps the learner's data: one data directory per learner.
import fs from "node:fs";
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
/** The same schema for PostgreSQL (several machines): its own SQL, in Prisma's layout. */
export const PG_MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "postgresql", "migrations");

/**
 * Private modes: the data directory and the session folders 0700, the database (and the WAL and shm
 * files SQLite creates beside it with the database's mode) 0600. The database holds device-cookie
 * hashes and session tokens' hashes, the folders the learner's transcripts.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the data directory 0700, or tightens an existing one this user owns. A shared directory
 * (sticky, like /tmp) is left alone: it is not ours to close.
 */
export function securePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = fs.statSync(dir);
  const mine = typeof process.getuid !== "function" || stat.uid === process.getuid();
  if (mine && (stat.mode & 0o1000) === 0 && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates the database file 0600 before SQLite does (SQLite would use the umask: 0644), or tightens it. */
export function securePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, PRIVATE_FILE_MODE);
    } catch {
      // -wal and -shm exist only while a connection is open.
    }
  }
}
