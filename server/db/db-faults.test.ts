import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { classifyDbFault, DbUnavailable, isDbUnavailable, withDb } from "./db-faults.ts";

const adapterError = (originalCode: string) => ({
  code: "P1008",
  meta: { driverAdapterError: { cause: { originalCode, kind: "SocketTimeout" } } },
});

describe("classifyDbFault", () => {
  it.each([
    [{ code: "SQLITE_BUSY" }, "locked"],
    [{ code: "SQLITE_BUSY_SNAPSHOT" }, "locked"],
    [adapterError("SQLITE_BUSY"), "locked"],
    [adapterError("SQLITE_FULL"), "disk-full"],
    [{ code: "SQLITE_FULL" }, "disk-full"],
    [{ code: "ENOSPC" }, "disk-full"],
    [adapterError("SQLITE_READONLY_DBMOVED"), "missing-or-damaged"],
    [{ code: "SQLITE_CORRUPT" }, "missing-or-damaged"],
    [{ code: "SQLITE_NOTADB" }, "missing-or-damaged"],
    [{ code: "SQLITE_CANTOPEN" }, "missing-or-damaged"],
    [{ code: "SQLITE_IOERR_WRITE" }, "missing-or-damaged"],
    [{ code: "SQLITE_CONSTRAINT_UNIQUE" }, null],
    [{ code: "P2002" }, null],
    // PostgreSQL: SQLSTATE from pg, or inside Prisma's adapter error (whose own P-code looks alike).
    [{ code: "40001" }, "conflict"],
    [{ code: "40P01" }, "conflict"],
    [{ code: "55P03" }, "conflict"],
    [{ ...adapterError("40001"), code: "P2034", clientVersion: "7.10.0" }, "conflict"],
    [{ ...adapterError("23505"), code: "P2002", clientVersion: "7.10.0" }, null],
    [{ code: "57P01" }, "unreachable"],
    [{ code: "08006" }, "unreachable"],
    [{ code: "53300" }, "unreachable"],
    [{ code: "23505" }, null],
    [{ code: "ECONNREFUSED" }, "unreachable"],
    [{ code: "ECONNRESET" }, "unreachable"],
    [{ code: "P1001", clientVersion: "7.10.0", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } }, "unreachable"],
    [new Error("Connection terminated unexpectedly"), "unreachable"],
    [new Error("timeout exceeded when trying to connect"), "unreachable"],
    [Object.assign(new AggregateError([{ code: "ECONNREFUSED" }]), {}), "unreachable"],
    [new Error("a bug"), null],
    [null, null],
  ] as const)("%j is %s", (error, kind) => expect(classifyDbFault(error)).toBe(kind));
});

describe("withDb", () => {
  it("retries a lock until it is released, and passes other errors through untouched", async () => {
    let calls = 0;
    const result = await withDb(
      "park the thought",
      async () => {
        calls++;
        if (calls < 3) throw { code: "SQLITE_BUSY" };
        return "ok";
      },
      { sleep: async () => undefined },
    );
    expect([result, calls]).toEqual(["ok", 3]);
    const bug = new Error("a bug");
    await expect(withDb("x", async () => Promise.reject(bug))).rejects.toBe(bug);
  });

  it("gives up on a lock at the deadline with a sentence naming the operation and the cause", async () => {
    let clock = 0;
    const error = await withDb("end the session", async () => Promise.reject({ code: "SQLITE_BUSY" }), {
      deadlineMs: 1_000,
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
    }).catch((e: unknown) => e);
    expect(isDbUnavailable(error)).toBe(true);
    expect((error as DbUnavailable).message).toBe(
      "StudyLoop could not end the session: another program is holding the database locked (a `sqlite3` shell, Prisma Studio or a backup tool). Close it and try again; nothing was lost.",
    );
  });

  it("recognises a real lock held by another connection (BEGIN IMMEDIATE)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-faults-"));
    const file = path.join(dir, "db.sqlite");
    const a = new Database(file, { timeout: 50 });
    a.exec("CREATE TABLE t (x)");
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const error = await withDb("write", async () => a.exec("INSERT INTO t VALUES (1)"), { deadlineMs: 200 }).catch((e: unknown) => e);
    holder.exec("ROLLBACK");
    await withDb("write", async () => a.exec("INSERT INTO t VALUES (1)"));
    expect((error as DbUnavailable).kind).toBe("locked");
    expect(a.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });
    a.close();
    holder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
