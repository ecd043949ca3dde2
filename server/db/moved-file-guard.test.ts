import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { classifyDbFault } from "./db-faults.ts";
import { guardMovedFile, isWriteStatement, sameFile } from "./moved-file-guard.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-moved-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("isWriteStatement", () => {
  it.each([
    ['INSERT INTO "t" VALUES (1)', true],
    ["  update t set a = 1", true],
    ["DELETE FROM t", true],
    ["REPLACE INTO t VALUES (1)", true],
    ["SELECT * FROM t", false],
    ["BEGIN", false],
    ["COMMIT", false],
    ["ROLLBACK", false],
    ["PRAGMA synchronous", false],
  ])("%s: %s", (sql, write) => expect(isWriteStatement(sql)).toBe(write));
});

describe("sameFile", () => {
  it.each([
    ["the same device and inode", { dev: 1, ino: 2 }, true],
    ["another inode (a new file in its place)", { dev: 1, ino: 3 }, false],
    ["another device", { dev: 9, ino: 2 }, false],
    ["no file", undefined, false],
  ])("%s", (_name, now, same) => expect(sameFile({ dev: 1, ino: 2 }, now)).toBe(same));
});

describe("guardMovedFile on a real file in write-ahead-log mode", () => {
  it("refuses writes once the file is moved or deleted, as SQLite's own DBMOVED; reads and rollback go on", () => {
    const file = path.join(tmp, "a.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (a INTEGER)");
    guardMovedFile(db, file);
    db.prepare("INSERT INTO t VALUES (1)").run();

    fs.renameSync(file, `${file}.away`);
    db.prepare("BEGIN").run();
    let refused: unknown;
    try {
      db.prepare("INSERT INTO t VALUES (2)").run();
    } catch (error) {
      refused = error;
    }
    db.prepare("ROLLBACK").run();
    expect(classifyDbFault(refused)).toBe("missing-or-damaged");
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });

    fs.renameSync(`${file}.away`, file);
    db.prepare("INSERT INTO t VALUES (3)").run();
    fs.rmSync(file);
    expect(() => db.prepare("UPDATE t SET a = 4").run()).toThrow(/moved or deleted/);
    db.close();
  });
});
