// session_topic_mark_tallies (the marks sessions on a topic made on other topics, kept by triggers)
// must equal a recount from every mark and its session, and each mark's session_topic its session's
// topic, after every kind of write: the app's own
// (marking, changing a mark's topic or status, taking it back), a session deleted with its marks or
// given another topic (the app does neither; the triggers keep the tally right anyway), a random series
// of all of them, and the migration's backfill of a history written before it. On a real migrated
// SQLite file and a real PostgreSQL.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import type { DatabaseTarget } from "../db/database-target.ts";
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from "../config/paths.ts";
import { applyMigrations } from "../db/migrate.ts";
import { applyPostgresMigrations } from "../db/migrate-postgres.ts";
import { openStorage } from "../db/storage.ts";
import { openTestStorage, testProviders } from "../db/test-storage.ts";
import { testPostgresUrl } from "../db/test-postgres.ts";
import { makeTestCoreOn, START, type TestCore } from "../sessions/test-support.ts";
import { StudyLog } from "./study-log.ts";

type Tally = Record<string, number>;

/** The tally as rows "session topic/status" → marks. */
async function tallied(db: Db): Promise<Tally> {
  const rows = await db.sessionTopicMarkTally.findMany();
  return Object.fromEntries(rows.map((r) => [`${r.topic}/${r.status}`, r.marks]));
}

/** The same counted from every mark and its session's topic (each mark's copy of it checked on the way). */
async function recounted(db: Db): Promise<Tally> {
  const marks = await db.topicMark.findMany({
    select: { topic: true, status: true, sessionTopic: true, session: { select: { topic: true } } },
  });
  const tally: Tally = {};
  for (const m of marks) {
    expect(m.sessionTopic).toBe(m.session.topic);
    if (m.session.topic === m.topic) continue;
    const key = `${m.session.topic}/${m.status}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

const sorted = (t: Tally) => Object.fromEntries(Object.entries(t).sort(([a], [b]) => a.localeCompare(b)));

describe.each(testProviders())("on %s", (provider) => {
  let core: TestCore | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await core?.close();
    core = undefined;
    close = undefined;
  });

  it("follows the app's writes: marking, changing a mark's topic and status, taking it back", async () => {
    core = await makeTestCoreOn(provider);
    const { db } = core;
    const { session } = await core.service.start(START); // on closures
    const study = new StudyLog(db, core.service, core.service.events, { log: () => undefined });
    close = async () => study.stop();

    const own = await study.mark({ topic: "closures", status: "win" }, "learner", session.id);
    const scope = await study.mark({ topic: "scope", status: "struggling" }, "agent", session.id);
    await study.mark({ topic: "hoisting", status: "win" }, "learner", session.id);
    expect(await tallied(db)).toEqual({ "closures/struggling": 1, "closures/win": 1 });

    await study.edits.editMark(scope.id, { status: "win" });
    expect(await tallied(db)).toEqual({ "closures/win": 2 });
    await study.edits.editMark(scope.id, { topic: "closures" }); // now the session's own topic
    expect(await tallied(db)).toEqual({ "closures/win": 1 });
    await study.edits.editMark(own.id, { topic: "Closures ", status: "insight" }); // another topic by exact name
    expect(await tallied(db)).toEqual({ "closures/win": 1, "closures/insight": 1 });
    await study.edits.editMark(own.id, { note: "only the note" });
    expect(await tallied(db)).toEqual({ "closures/win": 1, "closures/insight": 1 });
    await study.edits.removeMark(own.id);
    expect(await tallied(db)).toEqual({ "closures/win": 1 });
    expect(await tallied(db)).toEqual(await recounted(db));
  });

  it("takes a deleted session's marks out and moves them with a session's topic", async () => {
    const storage = await openTestStorage(provider);
    close = () => storage.dispose();
    const { db } = storage;
    const session = (id: string, topic: string) =>
      db.studySession.create({ data: { id, topic, energy: 5, agent: "tutor", transport: "pty", status: "ended", endedAt: new Date() } });
    const mark = (sessionId: string, topic: string, status: string) =>
      db.topicMark.create({ data: { id: crypto.randomUUID(), sessionId, topic, status } });
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    await session(a, "graphs");
    await session(b, "graphs");
    for (const [id, topic, status] of [
      [a, "trees", "win"],
      [a, "graphs", "win"],
      [a, "heaps", "struggling"],
      [b, "trees", "win"],
    ] as const)
      await mark(id, topic, status);
    expect(await tallied(db)).toEqual({ "graphs/win": 2, "graphs/struggling": 1 });

    await db.studySession.update({ where: { id: a }, data: { topic: "trees" } });
    expect(sorted(await tallied(db))).toEqual(sorted(await recounted(db)));
    expect(sorted(await tallied(db))).toEqual(sorted({ "graphs/win": 1, "trees/win": 1, "trees/struggling": 1 }));
    await db.studySession.delete({ where: { id: a } });
    expect(await db.topicMark.count({ where: { sessionId: a } })).toBe(0);
    expect(await tallied(db)).toEqual({ "graphs/win": 1 });
    await db.studySession.delete({ where: { id: b } });
    expect(await tallied(db)).toEqual({});
  });

  it("equals a recount after a random series of writes", async () => {
    const storage = await openTestStorage(provider);
    close = () => storage.dispose();
    const { db } = storage;
    let seed = 208; // a linear congruential generator's high bits: the same series on every run
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * xs.length)]!;
    const done: Record<string, number> = {};
    const topics = ["closures", "Closures ", "graphs", "sql joins", "regex"];
    const statuses = ["win", "struggling", "learning", "insight"];
    const sessions: string[] = [];
    const marks: string[] = [];
    for (let step = 0; step < 300; step++) {
      const op =
        sessions.length === 0
          ? "session"
          : pick(["session", "session", "mark", "mark", "mark", "mark", "edit", "edit", "remove", "retopic", "drop"]);
      if (op === "session") {
        const id = crypto.randomUUID();
        await db.studySession.create({ data: { id, topic: pick(topics), energy: 5, agent: "tutor", transport: "pty", status: "ended" } });
        sessions.push(id);
      } else if (op === "mark") {
        const id = crypto.randomUUID();
        await db.topicMark.create({ data: { id, sessionId: pick(sessions), topic: pick(topics), status: pick(statuses) } });
        marks.push(id);
      } else if (op === "edit" && marks.length > 0) {
        const data = pick([
          { topic: pick(topics) },
          { status: pick(statuses) },
          { sessionId: pick(sessions) },
          { sessionTopic: "written by hand" },
          { note: "n" },
        ]);
        await db.topicMark.updateMany({ where: { id: pick(marks) }, data });
      } else if (op === "remove" && marks.length > 0) {
        await db.topicMark.deleteMany({ where: { id: pick(marks) } });
      } else if (op === "retopic") {
        await db.studySession.update({ where: { id: pick(sessions) }, data: { topic: pick(topics) } });
      } else if (op === "drop" && sessions.length > 1) {
        const id = pick(sessions);
        await db.studySession.delete({ where: { id } });
        sessions.splice(sessions.indexOf(id), 1);
      }
      done[op] = (done[op] ?? 0) + 1;
      if (step % 50 === 49) expect(sorted(await tallied(db)), `after step ${step}`).toEqual(sorted(await recounted(db)));
    }
    expect(Object.values(done).every((n) => n >= 10) && Object.keys(done).length).toBe(6);
    expect(Object.keys(await tallied(db)).length).toBeGreaterThan(5);
  });

  it("is backfilled from the marks written before its migration", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-tally-"));
    const before = path.join(dir, "migrations");
    const all = provider === "sqlite" ? MIGRATIONS_DIR : PG_MIGRATIONS_DIR;
    fs.cpSync(all, before, { recursive: true, filter: (src) => !src.includes("session_topic_mark_tallies") });
    const rows = [
      ["s1", "graphs", "trees", "win"],
      ["s1", "graphs", "graphs", "win"],
      ["s1", "graphs", "heaps", "struggling"],
      ["s2", "regex", "graphs", "win"],
      ["s2", "regex", "graphs", "learning"],
    ];
    const sessionSql = `INSERT INTO study_sessions (id, topic, energy, agent, transport, status) VALUES ($1, $2, 5, 'tutor', 'pty', 'ended') ON CONFLICT DO NOTHING`;
    const markSql = `INSERT INTO topic_marks (id, session_id, topic, status) VALUES ($1, $2, $3, $4)`;
    let target: DatabaseTarget;
    if (provider === "sqlite") {
      const file = path.join(dir, "studyloop.db");
      applyMigrations(file, before);
      const raw = new Database(file);
      for (const [s, topic, markTopic, status] of rows) {
        raw.prepare(sessionSql.replace(/\$\d/g, "?")).run(s, topic);
        raw.prepare(markSql.replace(/\$\d/g, "?")).run(crypto.randomUUID(), s, markTopic, status);
      }
      raw.close();
      target = { provider, file };
    } else {
      const url = await testPostgresUrl();
      await applyPostgresMigrations(url, before);
      const raw = new pg.Client({ connectionString: url });
      await raw.connect();
      for (const [s, topic, markTopic, status] of rows) {
        await raw.query(sessionSql, [s, topic]);
        await raw.query(markSql, [crypto.randomUUID(), s, markTopic, status]);
      }
      await raw.end();
      target = { provider, url };
    }
    const storage = await openStorage(target); // applies the tally's migration
    close = async () => {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    expect(sorted(await tallied(storage.db))).toEqual(
      sorted({ "graphs/win": 1, "graphs/struggling": 1, "regex/win": 1, "regex/learning": 1 }),
    );
    expect(sorted(await tallied(storage.db))).toEqual(sorted(await recounted(storage.db)));
  });
});
