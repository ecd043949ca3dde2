import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { databaseFile, securePrivateDir } from "./paths.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe("private data directory", () => {
  it("creates the data directory 0700 and the database 0600, whatever the umask", () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-paths-"));
    made.push(parent);
    const dir = path.join(parent, "data");
    const umask = process.umask(0o022);
    try {
      securePrivateDir(dir);
      applyMigrations(databaseFile(dir));
    } finally {
      process.umask(umask);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(databaseFile(dir))).toBe(0o600);
  });

  it("tightens an existing world-readable data directory and database", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-paths-"));
    made.push(dir);
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(databaseFile(dir), "");
    fs.chmodSync(databaseFile(dir), 0o644);
    securePrivateDir(dir);
    applyMigrations(databaseFile(dir));
    expect(mode(dir)).toBe(0o700);
    expect(mode(databaseFile(dir))).toBe(0o600);
  });

  it("leaves a shared sticky directory alone", () => {
    const before = fs.statSync(os.tmpdir()).mode;
    securePrivateDir(os.tmpdir());
    expect(fs.statSync(os.tmpdir()).mode).toBe(before);
  });
});
