// `npm run studio`: Prisma Studio on the learner's database. Migrations are applied first so Studio
// shows the tables even before the first `studyloop web`. Prisma 7's Studio server listens on
// 127.0.0.1 only (hard-coded in the prisma CLI) and answers 403 to requests from other web origins.
import { spawn } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT, resolveDataDir } from "../config/paths.ts";
import { describeTarget, type DatabaseTarget } from "../db/database-target.ts";
import { applyMigrations, MigrationError } from "../db/migrate.ts";
import { applyPostgresMigrations } from "../db/migrate-postgres.ts";
import { DATA_OPTIONS, dataChoice, databaseTargetOrRefuse, openFailureRefusal } from "./database-option.ts";
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand, UsageError } from "./options.ts";
import { say, warn } from "./output.ts";

export const DEFAULT_STUDIO_PORT = 5555;

export const studioCommand: CommandSpec = {
  name: "studio",
  summary: "Browse and edit StudyLoop's database in Prisma Studio (on this machine only).",
  usage: "npm run studio -- [--data-dir D] [--database URL] [--port P]",
  options: [
    ...DATA_OPTIONS,
    { name: "port", kind: "port", value: "P", description: `Port for Studio on 127.0.0.1 (default ${DEFAULT_STUDIO_PORT}).` },
  ],
};

export async function runStudio(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(studioCommand, argv);
  if (parsed.help) {
    say(formatHelp(studioCommand));
    return 0;
  }
  const port = (parsed.options.port as number | undefined) ?? DEFAULT_STUDIO_PORT;
  // Studio would pick a port of its own for 0, and we could not print its URL.
  if (port === 0) throw new UsageError("--port must be from 1 to 65535 for Studio.");
  const chosen = dataChoice(parsed.options);
  const dataDir = resolveDataDir(chosen.dataDir);
  const target = databaseTargetOrRefuse(chosen.database, dataDir);
  // Studio crashes with a stack trace on a busy port: say it in one sentence instead.
  if (await canConnect(port)) {
    throw new UsageError(
      `Port ${port} on 127.0.0.1 is already in use (is Studio already running?): stop it or choose another port with --port.`,
    );
  }

  try {
    const { applied } = target.provider === "sqlite" ? applyMigrations(target.file) : await applyPostgresMigrations(target.url);
    if (applied.length > 0) say(`Database updated: ${applied.join(", ")}`);
  } catch (error) {
    if (error instanceof MigrationError) throw new UsageError(`${error.learnerMessage}\n${error.message}`);
    throw openFailureRefusal(error, target);
  }

  // .bin/prisma is the CLI's own script (no npx wrapper), so the child PID is the Studio server.
  // Studio 7 needs an absolute URL with "://"; CHECKPOINT_DISABLE stops its update/telemetry calls.
  const prisma = path.join(PROJECT_ROOT, "node_modules", ".bin", "prisma");
  const args = ["studio", "--url", studioUrl(target), "--port", String(port), "--browser", "none"];
  const child = spawn(prisma, args, {
    cwd: PROJECT_ROOT, // where prisma.config.ts lives
    stdio: "inherit",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });

  return new Promise<number>((resolve) => {
    let exited = false;
    void waitUntilListening(port, () => exited).then((up) => {
      if (!up) return;
      say(`Prisma Studio: http://127.0.0.1:${port}/  (data: ${describeTarget(target)})`);
      say("Press Ctrl-C to stop.");
    });
    let stopping = false;
    const forward = (signal: NodeJS.Signals) => {
      stopping = true;
      child.kill(signal);
    };
    const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
    for (const s of signals) process.on(s, forward);
    child.once("error", (error) => {
      warn(`Could not start Prisma Studio (${prisma}): ${error.message}`);
      resolve(1);
    });
    child.once("exit", (code, signal) => {
      exited = true;
      for (const s of signals) process.off(s, forward);
      // Studio exits 130 (or by signal) on the Ctrl-C we forwarded: for us that is a clean stop.
      if (stopping) resolve(0);
      else resolve(code ?? 128 + (os.constants.signals[signal!] ?? 0));
    });
  });
}

/** Studio 7 wants an absolute URL with "://": file:///abs/path for SQLite, the PostgreSQL URL as it is. */
function studioUrl(target: DatabaseTarget): string {
  return target.provider === "sqlite" ? `file://${target.file}` : target.url;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function waitUntilListening(port: number, gaveUp: () => boolean): Promise<boolean> {
  for (let i = 0; i < 600 && !gaveUp(); i++) {
    if (await canConnect(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

// Run directly by `npm run studio` (node --import tsx server/cli/studio.ts).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runStudio(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      warn(`studio: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = error instanceof UsageError ? error.exitCode : 1;
    },
  );
}
