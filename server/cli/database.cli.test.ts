// --database and DATABASE_URL as a learner meets them: real `studyloop` processes, a real PostgreSQL.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";
import { postgresAvailable, startPostgresCluster, type PostgresCluster } from "../db/test-postgres.ts";

const BIN = path.join(PROJECT_ROOT, "bin", "studyloop.js");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-dbcli-"));
  dirs.push(dir);
  return dir;
}

function run(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, STUDYLOOP_DATA_DIR: "", DATABASE_URL: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("the SQLite default", () => {
  it("a DATABASE_URL that is not PostgreSQL's leaves the data directory's file in use", async () => {
    const dir = tempDir();
    const result = await run(["status", "--data-dir", dir], { DATABASE_URL: "file:./dev.db" });
    expect(result.stderr).toBe("");
    expect([result.status, result.stdout.trim()]).toEqual([0, "No study session is running."]);
    expect(fs.existsSync(path.join(dir, "studyloop.db"))).toBe(true);
  });

  it("--database with a file path puts the SQLite file there", async () => {
    const dir = tempDir();
    const file = path.join(tempDir(), "elsewhere", "study.db");
    const result = await run(["status", "--data-dir", dir, "--database", file]);
    expect(result.status).toBe(0);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.existsSync(path.join(dir, "studyloop.db"))).toBe(false);
  });
});

describe.runIf(postgresAvailable())("--database postgresql://… (real PostgreSQL)", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(() => cluster?.destroy());

  it("a database that does not exist is exit 2, named without its password, and nothing is created", async () => {
    const url = cluster.url("no_such_db").replace("postgres@", "postgres:s3cret@");
    const result = await run(["status", "--data-dir", tempDir(), "--database", url]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^studyloop: The database in postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/no_such_db does not exist: create it/,
    );
    expect(result.stderr).not.toContain("s3cret");
    const { rows } = await cluster.admin("SELECT 1 FROM pg_database WHERE datname = 'no_such_db'");
    expect(rows).toEqual([]);
  });

  it("a server that cannot be reached is exit 75 (try again later) with a sentence, from DATABASE_URL too", async () => {
    const url = await cluster.createDatabase();
    cluster.stop("fast");
    try {
      for (const [args, env] of [
        [["status", "--database", url], {}],
        [["status"], { DATABASE_URL: url }],
        [["web", "--port", "0"], { DATABASE_URL: url, STUDYLOOP_KEEP_BUILD: "1" }],
      ] as const) {
        const result = await run([...args, "--data-dir", tempDir()], env);
        expect(result.status).toBe(75);
        expect(result.stderr.trim()).toBe(
          "studyloop: StudyLoop could not open its database: the database server cannot be reached (is PostgreSQL running, and can this machine reach it?). What was saved before is safe there; try again once it is back.",
        );
      }
    } finally {
      await cluster.start();
    }
  });
});
