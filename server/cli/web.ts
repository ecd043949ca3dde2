// `studyloop web`: build if needed, migrate, serve; stop cleanly on the first signal.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { PROJECT_ROOT, resolveDataDir } from "../config/paths.ts";
import { loadSettings } from "../config/settings.ts";
import type { CommandSpec } from "./options.ts";
import { UsageError, parseCommand, formatHelp } from "./options.ts";

export const DEFAULT_PORT = 8567;
export const DEFAULT_HOST = "127.0.0.1";

export const webCommand: CommandSpec = {
  name: "web",
  summary: "Serve the StudyLoop dashboard and the study page (Next.js and socket.io on one port).",
  usage: "studyloop web [--port N] [--host H] [--data-dir D] [--dev]",
  options: [
    { name: "port", kind: "port", value: "N", description: `Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one).` },
    { name: "host", kind: "string", value: "H", description: `Address to bind (default ${DEFAULT_HOST}, this machine only).` },
    { name: "data-dir", kind: "string", value: "D", description: "Where the database and session folders live (default $STUDYLOOP_DATA_DIR, else $XDG_DATA_HOME/studyloop, else ~/.local/share/studyloop)." },
    { name: "dev", kind: "boolean", description: "Run Next.js in development mode (hot reload) instead of the production build." },
  ],
};

export async function runWeb(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(webCommand, argv);
  if (parsed.help) {
    console.log(formatHelp(webCommand));
    return 0;
  }
  const port = (parsed.options.port as number | undefined) ?? DEFAULT_PORT;
  const host = (parsed.options.host as string | undefined) ?? DEFAULT_HOST;
  const dev = parsed.options.dev === true;
  const dataDir = resolveDataDir(parsed.options["data-dir"] as string | undefined);
  const settings = loadSettings();
  // A busy port fails now, before the data directory is touched or a minute is spent building.
  if (port !== 0) await assertPortFree(host, port);
  ensureWritableDir(dataDir);
  if (!dev && !fs.existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID"))) buildApp();

  // Imported late: loading Next and Prisma takes a moment that --help and usage errors should not pay.
  const { serve, ListenError } = await import("../http/studyloop-server.ts");
  const { MigrationError } = await import("../db/migrate.ts");
  let running;
  try {
    running = await serve({ dataDir, host, port, dev, settings });
  } catch (error) {
    if (error instanceof ListenError) throw new UsageError(error.message);
    if (error instanceof MigrationError) throw new UsageError(`${error.learnerMessage}\n  (${error.message})`);
    throw error;
  }
  console.log(`StudyLoop is running at ${running.url}  (data: ${dataDir})`);
  console.log("Press Ctrl-C to stop.");

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`Second ${signal}: stopping now.`);
        process.exit(130);
      }
      stopping = true;
      console.log(`Stopping (${signal}); live sessions are saved and ended. Press Ctrl-C again to stop at once.`);
      running.close().then(
        () => resolve(0),
        (error: unknown) => {
          console.error("StudyLoop could not stop cleanly:", error);
          resolve(1);
        },
      );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Creates the data directory if needed and proves it is writable, writing nothing else. */
export function ensureWritableDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new UsageError(`The data directory ${dir} cannot be written to: choose another with --data-dir or fix its permissions.`);
  }
}

function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new UsageError(`Port ${port} on ${host} is already in use: is StudyLoop (or another program) already running there? Stop it or choose another port with --port.`));
      else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") reject(new UsageError(`Cannot listen on ${host}: this machine has no such address. Use --host 127.0.0.1.`));
      else if (error.code === "EACCES") reject(new UsageError(`Not allowed to listen on port ${port}: choose a port above 1023 with --port.`));
      else reject(error);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

function buildApp(): void {
  console.log("No production build yet: building StudyLoop once (this takes about a minute)...");
  const nextBin = path.join(PROJECT_ROOT, "node_modules", ".bin", "next");
  const result = spawnSync(nextBin, ["build"], { cwd: PROJECT_ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("The production build failed (see the output above). Try `npm run build` to see the error again.");
}
