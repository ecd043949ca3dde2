// `studyloop web` as a learner runs it: a real process, real ports, real files.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";
import { applyMigrations } from "../db/migrate.ts";
import { testProviders } from "../db/test-storage.ts";
import { testPostgresUrl } from "../db/test-postgres.ts";

const BIN = path.join(PROJECT_ROOT, "bin", "studyloop.js");
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-cli-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    timeout: 190_000,
    env: { ...process.env, STUDYLOOP_DATA_DIR: "", ...env },
  });
}

describe("studyloop", () => {
  it("--help lists the commands and web --help every option", () => {
    const top = run(["--help"]);
    expect(top.status).toBe(0);
    expect(top.stdout).toContain("web");
    const web = run(["web", "--help"]);
    expect(web.status).toBe(0);
    for (const option of ["--port", "--host", "--data-dir", "--database", "--dev", "--lan", "--tls-cert", "--tls-key", "--allow-origin"])
      expect(web.stdout).toContain(option);
  });

  it.each([
    [["web", "--bogus"], /^studyloop: Unknown option --bogus/],
    [["web", "--port", "http"], /^studyloop: --port must be a whole number/],
    [["web", "--port", "99999"], /^studyloop: --port must be from 1 to 65535/],
    [["fly"], /^studyloop: Unknown command "fly"/],
    [["web", "--database", "mysql://db.lan/study"], /^studyloop: --database mysql:\/\/ is not a database StudyLoop can use/],
    [["status", "--database", "postgresql://u:p@[bad/s"], /^studyloop: --database is not a PostgreSQL URL StudyLoop can read/],
    [["study", "--database", "", "x"], /^studyloop: --database needs a value/],
    [["web", "--allow-origin", "ftp://files.example"], /^studyloop: --allow-origin: "ftp:\/\/files.example" is not an origin/],
    [["web", "--tls-cert", "/nonexistent/cert.pem"], /^studyloop: --tls-cert and --tls-key go together/],
    [
      ["web", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"],
      /^studyloop: --tls-cert: cannot read \/nonexistent\/cert.pem/,
    ],
  ])("%j exits 2 with one sentence", (args, message) => {
    const dir = tempDir();
    const result = run([...args, "--data-dir", dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each([["web", "--port", "0"], ["recall", "closures"], ["status"]])(
    "%j refuses a setting it cannot use: exit 2, what it accepts, nothing written",
    (...args) => {
      const dir = tempDir();
      const result = run([...args, "--data-dir", dir], { STUDYLOOP_GRACE_SECONDS: "soon", STUDYLOOP_MIRROR_HEAP_MB: "4" });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("studyloop: These settings cannot be used:");
      expect(result.stderr).toContain('STUDYLOOP_GRACE_SECONDS="soon": use a number of seconds above 0 (default 900).');
      expect(result.stderr).toContain('STUDYLOOP_MIRROR_HEAP_MB="4": use a whole number of megabytes, 8 or more (default 1024).');
      expect(fs.readdirSync(dir)).toEqual([]);
    },
  );

  it("refuses settings that cannot work together before it starts: exit 2, the pair and why, nothing written", () => {
    const dir = tempDir();
    const result = run(["web", "--port", "0", "--data-dir", dir], { STUDYLOOP_LEASE_SECONDS: "2", STUDYLOOP_HEARTBEAT_SECONDS: "5" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("studyloop: These two settings do not work together:");
    expect(result.stderr).toContain(
      "STUDYLOOP_LEASE_SECONDS and STUDYLOOP_HEARTBEAT_SECONDS: the lease (2 s) must be at least 4 heartbeats (20 s)",
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it.each(testProviders())(
    "a server that cannot serve (its page build is incomplete) exits 1 with the reason, on %s, leaving nothing running",
    async (provider) => {
      // A copy of the install whose pages' build lost its server half: Next refuses to start after the
      // database is open, with an ENOENT that was once reported as a missing database.
      const root = tempDir();
      for (const entry of ["bin", "dist", "server", "common", "prisma", "scripts", "native", "package.json"])
        fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
      fs.cpSync(path.join(PROJECT_ROOT, ".next"), path.join(root, ".next"), {
        recursive: true,
        filter: (from) => !/[/\\]\.next[/\\](server|cache)([/\\]|$)/.test(from),
      });
      fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(root, "node_modules"));
      const dir = path.join(tempDir(), "data");
      const database = provider === "postgresql" ? ["--database", await testPostgresUrl()] : [];
      const child = spawn(
        process.execPath,
        [path.join(root, "bin", "studyloop.js"), "web", "--port", "0", "--data-dir", dir, ...database],
        {
          env: { ...process.env, STUDYLOOP_DATA_DIR: "", STUDYLOOP_KEEP_BUILD: "1" },
        },
      );
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
      const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      clearTimeout(timer);
      expect(stderr).toMatch(/studyloop: The pages could not be started: their build is missing or incomplete .*Run `npm run build`/);
      expect(stderr).not.toMatch(/database/);
      expect(status).toBe(1); // exited on its own, not killed by the timer
    },
  );

  it("refuses a data directory it cannot write, writing nothing", () => {
    const file = path.join(tempDir(), "a-file");
    fs.writeFileSync(file, "");
    const result = run(["web", "--port", "0", "--data-dir", path.join(file, "data")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/The data directory .* cannot be written to/);
  });

  it("refuses a port already in use, naming it, and writes nothing", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => blocker.close());
    const port = (blocker.address() as net.AddressInfo).port;
    const dir = path.join(tempDir(), "data");
    const result = await runAsync(["web", "--port", String(port), "--data-dir", dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("refuses a database written by a newer StudyLoop and leaves it untouched", async () => {
    const dir = tempDir();
    const file = path.join(dir, "studyloop.db");
    applyMigrations(file);
    const db = new Database(file);
    db.prepare(
      "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)",
    ).run(crypto.randomUUID(), "0".repeat(64), Date.now(), "29991231000000_from_the_future", Date.now());
    db.close();
    const before = fs.readFileSync(file);
    const result = await runAsync(["web", "--port", "0", "--data-dir", dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/newer/i);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});

describe("studyloop web when its terminal goes away", () => {
  /** A running server whose output pipes this test holds. */
  async function startWeb(): Promise<{ child: ReturnType<typeof spawn>; exited: Promise<number | null>; output: () => string }> {
    const child = spawn(process.execPath, [BIN, "web", "--port", "0", "--data-dir", path.join(tempDir(), "data")], {
      env: { ...process.env, STUDYLOOP_DATA_DIR: "" },
    });
    cleanups.push(() => child.kill("SIGKILL"));
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`studyloop web did not start:\n${output}`)), 190_000);
      const check = () => {
        if (!output.includes("Press Ctrl-C to stop.")) return;
        clearTimeout(timer);
        child.stdout!.off("data", check);
        resolve();
      };
      child.stdout!.on("data", check);
    });
    return { child, exited, output: () => output };
  }

  /** Bounded wait: a server that never exits fails the test instead of hanging it. */
  const within = (exited: Promise<number | null>, ms: number) =>
    Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms))]);

  it("stops cleanly on SIGHUP, as when the terminal window closes", async () => {
    const web = await startWeb();
    web.child.kill("SIGHUP");
    expect(await within(web.exited, 30_000)).toBe(0);
    expect(web.output()).toContain("Stopping (SIGHUP)");
  });

  it("stops instead of spinning when whatever read its output is gone (EPIPE)", async () => {
    const web = await startWeb();
    // The reader goes away without a signal (a parent killed with -9): our ends of the pipes close.
    web.child.stdout!.destroy();
    web.child.stderr!.destroy();
    // Its next line of output fails with EPIPE. Before, that error was logged to the same dead
    // output, failing again, in a loop that kept the server from ever stopping.
    web.child.kill("SIGTERM");
    expect(await within(web.exited, 30_000)).toBe(0);
  });
});

/** Async, so a server in this process (the port blocker) keeps answering while the CLI runs. */
function runAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, STUDYLOOP_DATA_DIR: "" } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 190_000);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}
