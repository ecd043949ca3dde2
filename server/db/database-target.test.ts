import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseTargetError, describeTarget, resolveDatabaseTarget } from "./database-target.ts";

const DATA = "/home/learner/.local/share/studyloop";
const SQLITE_DEFAULT = { provider: "sqlite", file: `${DATA}/studyloop.db` };

describe("resolveDatabaseTarget", () => {
  it.each([
    ["no flag, no DATABASE_URL", undefined, {}, SQLITE_DEFAULT],
    [
      "a postgresql:// flag",
      "postgresql://u:p@db.lan:5432/studyloop",
      {},
      { provider: "postgresql", url: "postgresql://u:p@db.lan:5432/studyloop" },
    ],
    ["a postgres:// flag", "postgres://db.lan/studyloop", {}, { provider: "postgresql", url: "postgres://db.lan/studyloop" }],
    [
      "a socket directory in ?host=",
      "postgresql:///studyloop?host=/run/postgresql",
      {},
      { provider: "postgresql", url: "postgresql:///studyloop?host=/run/postgresql" },
    ],
    ["an absolute file path", "/srv/study.db", {}, { provider: "sqlite", file: "/srv/study.db" }],
    ["a relative file path", "study.db", {}, { provider: "sqlite", file: path.resolve("study.db") }],
    ["a file:// URL", "file:///srv/study.db", {}, { provider: "sqlite", file: "/srv/study.db" }],
    ["a file: URL", "file:./study.db", {}, { provider: "sqlite", file: path.resolve("study.db") }],
    [
      "DATABASE_URL postgresql",
      undefined,
      { DATABASE_URL: "postgresql://db.lan/s" },
      { provider: "postgresql", url: "postgresql://db.lan/s" },
    ],
    ["DATABASE_URL of another kind is left alone", undefined, { DATABASE_URL: "file:./dev.db" }, SQLITE_DEFAULT],
    [
      "the flag wins over DATABASE_URL",
      "/srv/study.db",
      { DATABASE_URL: "postgresql://db.lan/s" },
      { provider: "sqlite", file: "/srv/study.db" },
    ],
  ])("%s", (_label, flag, env, expected) => {
    expect(resolveDatabaseTarget(flag, env, DATA)).toEqual(expected);
  });

  it.each([
    ["", /needs a value/],
    ["mysql://db.lan/s", /mysql:\/\/ is not a database StudyLoop can use/],
    ["postgresql://", /not a PostgreSQL URL|names no host/],
    ["postgresql://u:p@[bad/s", /not a PostgreSQL URL/],
    ["file:", /names no file/],
  ])("refuses --database %j with a sentence", (flag, message) => {
    expect(() => resolveDatabaseTarget(flag, {}, DATA)).toThrow(DatabaseTargetError);
    expect(() => resolveDatabaseTarget(flag, {}, DATA)).toThrow(message);
  });

  it("refuses a malformed PostgreSQL DATABASE_URL instead of quietly using SQLite", () => {
    expect(() => resolveDatabaseTarget(undefined, { DATABASE_URL: "postgresql://u:p@[bad/s" }, DATA)).toThrow(/DATABASE_URL is not/);
  });
});

describe("describeTarget", () => {
  it("hides the password", () => {
    const shown = describeTarget({ provider: "postgresql", url: "postgresql://learner:s3cret@db.lan:5432/studyloop?password=x" });
    expect(shown).not.toContain("s3cret");
    expect(shown).toBe("postgresql://learner:***@db.lan:5432/studyloop?password=***");
  });

  it("shows a SQLite file as its path", () => {
    expect(describeTarget({ provider: "sqlite", file: "/srv/study.db" })).toBe("/srv/study.db");
  });
});
