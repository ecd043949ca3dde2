// Test-only: a real PostgreSQL for the tests, started by the tests themselves from Debian's
// postgresql package (initdb + pg_ctl in a temp folder, no system service, 127.0.0.1 on a free port).
// One shared cluster per test process hands out a new empty database per call; a test that needs to
// stop or cut off the server starts its own cluster.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** initdb and pg_ctl: on PATH, else in Debian's versioned folder (Debian does not put them on PATH). */
export function postgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  for (const v of versions.sort((a, b) => Number(b) - Number(a))) {
    const dir = path.join(root, v, "bin");
    if (fs.existsSync(path.join(dir, "initdb"))) return dir;
  }
  return null;
}

let warned = false;

/**
 * Whether PostgreSQL tests can run here. Missing initdb is said loudly; in CI ($CI, or
 * STUDYLOOP_REQUIRE_POSTGRES from .ci/run, which installs PostgreSQL) it is an error, so a PostgreSQL
 * suite never passes by skipping.
 */
export function postgresAvailable(): boolean {
  if (postgresBinDir()) return true;
  const reason = "PostgreSQL tests SKIPPED: initdb not found (install Debian's postgresql package; .ci/run does).";
  if (process.env.CI || process.env.STUDYLOOP_REQUIRE_POSTGRES) throw new Error(reason.replace("SKIPPED", "cannot run in CI"));
  if (!warned) console.warn(`\n*** ${reason} ***\n`);
  warned = true;
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  readonly port: number;
  /** The data folder (initdb's -D). */
  readonly dataDir: string;
  /** postgresql://postgres@127.0.0.1:<port>/<database>, the superuser (trust auth on loopback). */
  url(database?: string): string;
  /** A new empty database; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Runs one statement as the superuser on the `postgres` database. */
  admin<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>>;
  /** Stops the server (fast: disconnects clients and shuts down; immediate: like a crash). */
  stop(mode?: "fast" | "immediate"): void;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  destroy(): void;
}

let counter = 0;

/** Starts a new cluster for this test process; stopped and deleted at process exit. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed here (initdb not found); install Debian's postgresql package.");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-pg-"));
  const dataDir = path.join(root, "data");
  const socketDir = path.join(root, "socket");
  fs.mkdirSync(socketDir);
  // PostgreSQL refuses to run as root: as root, run it as the `postgres` user, which must own the folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const uid = Number(owner.stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    if (!Number.isInteger(uid) || owner.status !== 0)
      throw new Error("Running as root, but there is no `postgres` user to run PostgreSQL as.");
    fs.chmodSync(root, 0o755);
    fs.chownSync(root, uid, gid);
    fs.chownSync(socketDir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const cmd = asRoot ? "runuser" : path.join(bin, tool);
    const full = asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args;
    const r = spawnSync(cmd, full, { encoding: "utf8", cwd: root });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${socketDir}`,
    // A test database: durability is not what is tested (a kill -9 of StudyLoop, not of PostgreSQL).
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  let running = false;
  const cluster: PostgresCluster = {
    port,
    dataDir,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name = `t_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`) {
      await cluster.admin(`CREATE DATABASE "${name}"`);
      return cluster.url(name);
    },
    async admin(sql, params) {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        return await client.query(sql, params);
      } finally {
        await client.end();
      }
    },
    stop(mode = "fast") {
      if (!running) return;
      running = false;
      run("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "stop"]);
    },
    async start() {
      if (running) return;
      run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(root, "server.log"), "-w", "-t", "60", "start"]);
      running = true;
    },
    destroy() {
      try {
        cluster.stop("immediate");
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  };
  await cluster.start();
  process.once("exit", () => cluster.destroy());
  // A test process killed outright never runs its exit handlers: a watcher stops the server then.
  const watcher = spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null && [ -d "${dataDir}" ]; do sleep 2; done; ` +
        `[ -d "${dataDir}" ] && ${asRoot ? "runuser -u postgres -- " : ""}"${path.join(bin, "pg_ctl")}" -D "${dataDir}" -m immediate stop >/dev/null 2>&1; rm -rf "${root}"`,
    ],
    { detached: true, stdio: "ignore" },
  );
  watcher.unref();
  return cluster;
}

let shared: Promise<PostgresCluster> | null = null;

/** The cluster shared by this test process's PostgreSQL tests (started on first use). */
export function sharedPostgresCluster(): Promise<PostgresCluster> {
  shared ??= startPostgresCluster();
  return shared;
}

/** The URL of a new, empty database on the shared cluster. */
export async function testPostgresUrl(): Promise<string> {
  return (await sharedPostgresCluster()).createDatabase();
}
