// `studyloop web`: build if needed, migrate, serve; stop cleanly on the first signal.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn } from "node:child_process";
import tls from "node:tls";
import { PROJECT_ROOT, resolveDataDir, securePrivateDir, sessionsDir } from "../config/paths.ts";
import { loadSettings } from "../config/settings.ts";
import type { CommandSpec } from "./options.ts";
import { UsageError, parseCommand, formatHelp } from "./options.ts";
import { parseAllowOrigins } from "../security/origin.ts";
import { buildVerdict } from "./build-freshness.ts";
import { DATA_OPTIONS, dataChoice, databaseTargetOrRefuse, openFailureRefusal } from "./database-option.ts";
import { describeTarget } from "../db/database-target.ts";
import { say, warn } from "./output.ts";
import { CliRefusal } from "./cli-errors.ts";

export const DEFAULT_PORT = 8567;
export const DEFAULT_HOST = "127.0.0.1";
/** --lan binds every IPv4 interface. */
export const LAN_HOST = "0.0.0.0";

export const webCommand: CommandSpec = {
  name: "web",
  summary: "Serve the StudyLoop dashboard and the study page (Next.js and socket.io on one port).",
  usage:
    "studyloop web [--port N] [--host H] [--lan] [--tls-cert F --tls-key F] [--allow-origin O] [--data-dir D] [--database URL] [--dev]",
  options: [
    { name: "port", kind: "port", value: "N", description: `Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one).` },
    { name: "host", kind: "string", value: "H", description: `Address to bind (default ${DEFAULT_HOST}, this machine only).` },
    ...DATA_OPTIONS,
    {
      name: "lan",
      kind: "boolean",
      description:
        "Serve the local network too (binds all interfaces): every device, this one included, must be paired first with a one-time link printed here.",
    },
    { name: "tls-cert", kind: "string", value: "F", description: "Serve HTTPS and WSS with this certificate (PEM file); needs --tls-key." },
    { name: "tls-key", kind: "string", value: "F", description: "The private key (PEM file) for --tls-cert." },
    {
      name: "allow-origin",
      kind: "string",
      value: "O",
      description: "Also trust requests from these origins, comma-separated (e.g. https://study.example.org behind a proxy).",
    },
    { name: "dev", kind: "boolean", description: "Run Next.js in development mode (hot reload) instead of the production build." },
  ],
};

export async function runWeb(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(webCommand, argv);
  if (parsed.help) {
    say(formatHelp(webCommand));
    return 0;
  }
  const port = (parsed.options.port as number | undefined) ?? DEFAULT_PORT;
  const lan = parsed.options.lan === true;
  const host = (parsed.options.host as string | undefined) ?? (lan ? LAN_HOST : DEFAULT_HOST);
  const tls = readTls(parsed.options["tls-cert"] as string | undefined, parsed.options["tls-key"] as string | undefined);
  let allowOrigins: string[];
  try {
    allowOrigins = parseAllowOrigins(parsed.options["allow-origin"] as string | undefined);
  } catch (error) {
    throw new UsageError(`--allow-origin: ${(error as Error).message}.`);
  }
  const dev = parsed.options.dev === true;
  const chosen = dataChoice(parsed.options);
  const dataDir = resolveDataDir(chosen.dataDir);
  const database = databaseTargetOrRefuse(chosen.database, dataDir);
  const settings = loadSettings();
  // A busy port fails now, before the data directory is touched or a minute is spent building.
  if (port !== 0) await assertPortFree(host, port);
  ensureWritableDir(dataDir);
  if (tls) trustCertificateInAgents(tls.cert, dataDir);
  if (!dev) await buildIfNeeded();

  // Imported late: loading Next and Prisma takes a moment that --help and usage errors should not pay.
  const { serve, ListenError } = await import("../http/studyloop-server.ts");
  const { MigrationError } = await import("../db/migrate.ts");
  const { PagesStartError } = await import("../http/next-app.ts");
  const { pairingBanner } = await import("../security/pairing-banner.ts");
  let running;
  try {
    running = await serve({ dataDir, database, host, port, dev, settings, lan, tls, allowOrigins });
  } catch (error) {
    if (error instanceof ListenError) throw new UsageError(error.message);
    if (error instanceof MigrationError) throw new UsageError(`${error.learnerMessage}\n  (${error.message})`);
    // Not a database fault, whatever its code (an ENOENT of the build's files): the sentence says what to do.
    if (error instanceof PagesStartError) throw new CliRefusal(error.message, 1);
    throw openFailureRefusal(error, database);
  }
  // Signals are handled before the first line is printed: whoever waits for "running at" may signal
  // at once, and an unhandled SIGTERM or SIGHUP would kill the server without saving its sessions.
  let stopRefresh = () => {};
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (why: string) => {
      if (stopping) {
        warn(`Second ${why}: stopping now.`);
        process.exit(130);
      }
      stopping = true;
      stopRefresh();
      say(`Stopping (${why}); live sessions are saved and ended. Press Ctrl-C again to stop at once.`);
      running.close().then(
        () => resolve(0),
        (error: unknown) => {
          warn(`StudyLoop could not stop cleanly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          resolve(1);
        },
      );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    // The terminal StudyLoop was started from closed: stop as on Ctrl-C, saving live sessions.
    process.on("SIGHUP", stop);
    // Whatever read our output is gone (a closed pipe: EPIPE). Unhandled, the error is logged to the
    // same dead output, which fails again, in a loop that starves the server. Treat it as the terminal
    // closing; console writes to a closed stream are dropped from then on.
    const outputLost = (error: NodeJS.ErrnoException) => {
      if ((error.code === "EPIPE" || error.code === "ECONNRESET") && !stopping) stop("its output was closed");
    };
    process.stdout.on("error", outputLost);
    process.stderr.on("error", outputLost);
  });

  say(
    `StudyLoop is running at ${running.url}  (data: ${dataDir}${database.provider === "postgresql" ? `; database: ${describeTarget(database)}` : ""})`,
  );
  const access = running.runtime.access;
  if (access.requirePairing) {
    const canRefresh = process.stdin.isTTY === true;
    // Not through say(): the QR code is drawn with colour escapes; the banner holds only our own addresses.
    console.log(await pairingBanner(access, { qr: true, canRefresh }));
    if (canRefresh) stopRefresh = onEnter(() => void pairingBanner(access, { qr: true, canRefresh }).then((text) => console.log(text)));
  }
  say("Press Ctrl-C to stop.");
  return stopped;
}

/** Reads --tls-cert and --tls-key now, so a missing or broken file is a usage error, not a crash later. */
function readTls(certFile: string | undefined, keyFile: string | undefined): { cert: Buffer; key: Buffer } | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new UsageError("--tls-cert and --tls-key go together: give both files, or neither.");
  const read = (file: string, option: string) => {
    try {
      return fs.readFileSync(file);
    } catch {
      throw new UsageError(`--${option}: cannot read ${file}.`);
    }
  };
  const cert = read(certFile, "tls-cert");
  const key = read(keyFile, "tls-key");
  try {
    tls.createSecureContext({ cert, key });
  } catch (error) {
    throw new UsageError(
      `--tls-cert and --tls-key do not make a usable certificate (${(error as Error).message}): give PEM files of a certificate and its own key.`,
    );
  }
  return { cert, key };
}

/**
 * The agent's `studyloop park` and `topic` call this server at its https:// address, which Node
 * refuses when the certificate is self-signed. Agents inherit this server's environment (minus
 * secrets, server/config/agent-env.ts), and Node reads NODE_EXTRA_CA_CERTS (one file) when a process
 * starts: point it at the certificate, added to whatever file it already named.
 */
function trustCertificateInAgents(cert: Buffer, dataDir: string): void {
  const existing = process.env.NODE_EXTRA_CA_CERTS;
  let extra = "";
  try {
    if (existing) extra = fs.readFileSync(existing, "utf8");
  } catch {
    // An unreadable file was useless to Node anyway.
  }
  const file = path.join(dataDir, "agent-ca-certificates.pem");
  fs.writeFileSync(file, `${extra.trimEnd()}${extra ? "\n" : ""}${cert.toString("utf8")}`, { mode: 0o644 });
  process.env.NODE_EXTRA_CA_CERTS = file;
}

/** Calls `fn` each time Enter is pressed in the terminal; returns a function that stops listening. */
function onEnter(fn: () => void): () => void {
  const listener = (chunk: Buffer) => {
    if (chunk.includes(10) || chunk.includes(13)) fn();
  };
  process.stdin.on("data", listener);
  return () => {
    process.stdin.off("data", listener);
    process.stdin.pause();
  };
}

/** Creates the data directory if needed and proves it is writable, writing nothing else. */
export function ensureWritableDir(dir: string): void {
  try {
    securePrivateDir(dir);
    securePrivateDir(sessionsDir(dir));
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new UsageError(`The data directory ${dir} cannot be written to: choose another with --data-dir or fix its permissions.`);
  }
}

function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        reject(
          new UsageError(
            `Port ${port} on ${host} is already in use: is StudyLoop (or another program) already running there? Stop it or choose another port with --port.`,
          ),
        );
      else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND")
        reject(new UsageError(`Cannot listen on ${host}: this machine has no such address. Use --host 127.0.0.1.`));
      else if (error.code === "EACCES")
        reject(new UsageError(`Not allowed to listen on port ${port}: choose a port above 1023 with --port.`));
      else reject(error);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** While the pages build, a line this often says how long it has been (no estimate: a busy machine made them lies). */
const BUILD_HEARTBEAT_MS = 30_000;

/**
 * Builds the pages when there is no build yet or the sources changed since (a `git pull`, an edit).
 * Next's own output (its experiments list, the route table) is kept back unless the build fails:
 * the learner sees a line before, one every 30 s with the time so far, and one after.
 */
async function buildIfNeeded(): Promise<void> {
  const verdict = buildVerdict(PROJECT_ROOT);
  if (verdict === "fresh") return;
  // Test runs build once up front (`npm test`) and start many servers from that build, some while a
  // developer edits: a server that rebuilt underneath its siblings would break them.
  if (verdict === "stale" && process.env.STUDYLOOP_KEEP_BUILD === "1") return;
  say(
    verdict === "missing"
      ? "No production build yet: building StudyLoop's pages once (next build), then the server starts."
      : "The sources changed since the last build: rebuilding StudyLoop's pages (next build), then the server starts.",
  );
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const heartbeat = setInterval(() => say(`  still building the pages: ${seconds()} s so far`), BUILD_HEARTBEAT_MS);
  const nextBin = path.join(PROJECT_ROOT, "node_modules", ".bin", "next");
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(nextBin, ["build"], { cwd: PROJECT_ROOT, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    let text = "";
    child.stdout.on("data", (d: Buffer) => (text += d.toString()));
    child.stderr.on("data", (d: Buffer) => (text += d.toString()));
    child.on("error", (error) => resolve({ code: null, output: `${text}${error.message}\n` }));
    child.on("close", (exit) => resolve({ code: exit, output: text }));
  }).finally(() => clearInterval(heartbeat));
  if (code !== 0) {
    process.stderr.write(output);
    throw new Error("The production build failed (see the output above). Run `npm run build` to see the error again.");
  }
  say(`Built the pages in ${seconds()} s.`);
}
