// The search index on a real SQLite file and a real PostgreSQL: literal matching (no wildcards, no FTS5 operators), the
// fields a learner sees (never the summary's JSON), ranking, snippets and where a hit jumps to.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { openTestStorage, testProviders, type TestStorage } from "../db/test-storage.ts";
import { SearchIndex, SearchIndexLimits, splitDoc } from "./search-index.ts";
import { planSearch, snippetLine } from "./search-query.ts";
import { RANKED_MATCHES } from "./search-sql.ts";

describe("planSearch", () => {
  it.each([
    ["closures", '"closures"', []],
    ['say "hi" OR NOT x*', '"say" AND """hi""" AND "NOT"', ["%OR%", "%x*%"]],
    ["50% byte_size", '"50%" AND "byte_size"', []],
    ["% _", null, ["%\\%%", "%\\_%"]],
  ])("%j", (query, match, likes) => {
    expect(planSearch(query)).toEqual({ match, likes });
  });

  it("has nothing to search for in blanks", () => {
    expect(planSearch("   ")).toBeNull();
  });
});

describe.each(testProviders())("on %s", (provider) => {
  let storage: TestStorage;
  let db: Db;
  let index: SearchIndex;
  const ids = { js: crypto.randomUUID(), py: crypto.randomUUID(), sql: crypto.randomUUID() };

  async function session(id: string, topic: string, summary?: object): Promise<void> {
    await db.studySession.create({
      data: { id, topic, energy: 5, agent: "tutor", transport: "pty", status: "ended", endedAt: new Date() },
    });
    if (summary) await db.studySession.update({ where: { id }, data: { summary: JSON.stringify(summary) } });
  }

  beforeAll(async () => {
    storage = await openTestStorage(provider);
    db = storage.db;
    index = new SearchIndex(db);
    const summary = {
      durationMinutes: 30,
      focusMinutes: 25,
      wins: ["closures"],
      struggles: [],
      insights: [],
      parked: ["what is 50% of a byte_size?"],
      forNextSession: [],
    };
    await session(ids.js, "JavaScript closures", summary);
    await session(ids.py, "Python generators");
    await session(ids.sql, "SQL joins");
    await db.parkedItem.create({ data: { id: crypto.randomUUID(), sessionId: ids.py, text: "why does yield pause?", source: "agent" } });
    await db.topicMark.create({
      data: { id: crypto.randomUUID(), sessionId: ids.sql, topic: "LEFT JOIN", status: "struggling", note: "NULLs on the right" },
    });
    await index.add(ids.js, [
      {
        kind: "transcript",
        atMs: 761_300,
        text: "$ node counter.js\na closure captures the variable, not its value",
        createdAt: new Date(),
      },
      { kind: "transcript", atMs: 12_000, text: "$ ls\nnotes.txt", createdAt: new Date() },
    ]);
    await index.add(ids.py, [
      { kind: "chat", atMs: 5_000, sourceId: "7", text: "A generator is a closure over its frame, closure closure", createdAt: new Date() },
    ]);
  });

  afterAll(async () => {
    await storage.dispose();
  });

  describe("SearchIndex", () => {
    it("finds a transcript moment and jumps to its time in the player", async () => {
      const [hit] = await index.search("captures the variable");
      expect(hit).toMatchObject({
        sessionId: ids.js,
        topic: "JavaScript closures",
        kind: "transcript",
        atMs: 761_300,
        href: `/sessions/${ids.js}?t=761.3`,
      });
      expect(snippetLine(hit!.snippet)).toContain("[captures]");
    });

    it("ranks the best match first and links a chat message", async () => {
      const hits = await index.search("closure");
      expect(hits[0]).toMatchObject({ sessionId: ids.py, kind: "chat", href: `/sessions/${ids.py}#message-7` });
      expect(hits.map((h) => h.kind)).toEqual(expect.arrayContaining(["transcript", "topic", "summary"]));
    });

    it("searches the summary as text, not its JSON", async () => {
      expect(await index.search("wins")).toEqual([]);
      expect(await index.search("focusMinutes")).toEqual([]);
      expect((await index.search("byte_size")).map((h) => h.kind)).toEqual(["summary"]);
    });

    it("treats % and _ as characters, never as wildcards", async () => {
      expect((await index.search("%")).map((h) => h.sessionId)).toEqual([ids.js]);
      expect((await index.search("_")).map((h) => h.sessionId)).toEqual([ids.js]);
      expect(await index.search("e_t")).toEqual([]);
    });

    it("treats FTS5 syntax as words", async () => {
      expect(await index.search("closure*")).toEqual([]);
      expect(await index.search("yield OR join")).toEqual([]);
      expect((await index.search('"yield"')).map((h) => h.kind)).toEqual([]);
    });

    it("indexes parked thoughts and marks as they are written, and forgets them when deleted", async () => {
      expect((await index.search("yield pause")).map((h) => [h.sessionId, h.kind])).toEqual([[ids.py, "parked"]]);
      expect((await index.search("nulls on")).map((h) => [h.sessionId, h.kind])).toEqual([[ids.sql, "mark"]]);
      await db.topicMark.deleteMany({ where: { sessionId: ids.sql } });
      expect(await index.search("nulls on")).toEqual([]);
    });

    it("finds short words with an escaped LIKE and marks them in the snippet", async () => {
      const hits = await index.search("ls");
      expect(hits.some((h) => h.kind === "transcript" && snippetLine(h.snippet).includes("[ls]"))).toBe(true);
    });

    it("lists the newest sessions with a match (of a topic, as many as asked), and leaves out the one asked", async () => {
      await db.studySession.update({ where: { id: ids.js }, data: { startedAt: new Date(Date.now() - 60_000) } });
      expect(await index.sessionIds("closure")).toEqual([ids.py, ids.js]);
      expect(await index.sessionIds("closure", { limit: 1 })).toEqual([ids.py]);
      expect(await index.sessionIds("closure", { topic: "JavaScript closures" })).toEqual([ids.js]);
      const shortWord = [...new Set((await index.search("ls")).map((h) => h.sessionId))];
      expect(shortWord.length).toBeGreaterThan(0);
      expect((await index.sessionIds("ls")).sort()).toEqual(shortWord.sort());
      expect(await index.sessionIds("zqxjvk")).toEqual([]);
      expect((await index.search("closure", { excludeSessionId: ids.py })).every((h) => h.sessionId === ids.js)).toBe(true);
    });

    it("keeps the moments to the topic and to the sessions asked for, so they agree with the list (issue 40)", async () => {
      const recursion = crypto.randomUUID();
      const joins = crypto.randomUUID();
      await session(recursion, "Recursion");
      await session(joins, "SQL lateral joins");
      await index.add(joins, [{ kind: "transcript", atMs: 1_000, text: "a lateral join runs per row; yx", createdAt: new Date() }]);
      // The case: the topic has no match, so neither the list nor the moments name a session.
      for (const q of ["lateral", "yx"]) {
        expect(await index.sessionIds(q, { topic: "Recursion" })).toEqual([]);
        expect(await index.search(q, { topic: "Recursion" })).toEqual([]);
        expect((await index.search(q)).some((h) => h.sessionId === joins)).toBe(true);
      }
      await index.add(recursion, [{ kind: "transcript", atMs: 2_000, text: "lateral thinking: recursion yx", createdAt: new Date() }]);
      for (const q of ["lateral", "yx"]) {
        const listed = await index.sessionIds(q, { topic: "Recursion" });
        const moments = await index.search(q, { topic: "Recursion" });
        expect(listed).toEqual([recursion]);
        expect(moments.length).toBeGreaterThan(0);
        expect(moments.every((h) => h.sessionId === recursion && h.topic === "Recursion")).toBe(true);
        // Only the sessions a page lists (its other filters applied), and none when it lists none.
        expect(new Set((await index.search(q, { sessionIds: [joins] })).map((h) => h.sessionId))).toEqual(new Set([joins]));
        expect(await index.search(q, { sessionIds: [] })).toEqual([]);
        expect(await index.search(q, { topic: "Recursion", sessionIds: [joins] })).toEqual([]);
      }
    });

    it("ranks the newest matches of a word found everywhere, best first, and stays bounded by them", async () => {
      const at = (i: number) => ({ kind: "transcript" as const, atMs: i, createdAt: new Date() });
      // The best match of all is the oldest: past the newest RANKED_MATCHES, it is not ranked. Equal
      // lengths between, so their ranks tie and the newest come first.
      await index.add(ids.sql, [{ ...at(0), text: "quorum quorum quorum quorum" }]);
      await index.add(
        ids.sql,
        Array.from({ length: RANKED_MATCHES }, (_, i) => ({ ...at(i + 1), text: `a quorum of ${String(i).padStart(4, "0")} voters` })),
      );
      await index.add(ids.sql, [{ ...at(RANKED_MATCHES + 1), text: "quorum quorum" }]);
      const hits = await index.search("quorum", { limit: 3 });
      expect(hits.map((h) => h.atMs)).toEqual([RANKED_MATCHES + 1, RANKED_MATCHES, RANKED_MATCHES - 1]);
    });
  });

  describe("writing many documents", () => {
    it("stores them a few at a time, with a turn of the event loop between writes, and replaces them all", async () => {
      const id = crypto.randomUUID();
      await session(id, "many documents");
      const count = SearchIndexLimits.DOCS_PER_WRITE * 5 + 3;
      const docs = (word: string) =>
        Array.from({ length: count }, (_, i) => ({
          kind: "transcript" as const,
          atMs: i + 0.4,
          text: `${word} ${i}`,
          createdAt: new Date(1_700_000_000_000 + i),
        }));
      // What a page's request would get: turns of the event loop, counted, and each write's size and turn.
      let turns = 0;
      let ticking = true;
      const tick = () => {
        if (!ticking) return;
        turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      // Each write the index makes: its rows (an insert binds 6 values a row, a delete its limit last), its turn.
      const writes: { rows: number; turn: number; changed: number }[] = [];
      const watchedDb = new Proxy(db, {
        get(target, key, receiver) {
          if (key !== "$executeRaw") return Reflect.get(target, key, receiver);
          return async (sql: { sql: string; values: unknown[] }) => {
            const turn = turns;
            const changed = await target.$executeRaw(sql as never);
            const rows = sql.sql.startsWith("INSERT") ? sql.values.length / 6 : Number(sql.values.at(-1));
            writes.push({ rows, turn, changed });
            return changed;
          };
        },
      });
      const watched = new SearchIndex(watchedDb);
      await watched.add(id, docs("zebrafish"));
      await new Promise((resolve) => setImmediate(resolve)); // two calls: the turns are counted within each
      await watched.replace(id, "transcript", docs("quokka"));
      ticking = false;
      const perWrite = Math.ceil(count / SearchIndexLimits.DOCS_PER_WRITE);
      const changing = writes.filter((w) => w.changed > 0);
      expect(changing.length).toBe(3 * perWrite); // added, deleted, added again
      expect(Math.max(...writes.map((w) => w.rows))).toBe(SearchIndexLimits.DOCS_PER_WRITE);
      for (let i = 1; i < changing.length; i++) expect(changing[i]!.turn).toBeGreaterThan(changing[i - 1]!.turn);
      expect(await db.searchDoc.count({ where: { sessionId: id, kind: "transcript", text: { startsWith: "zebrafish" } } })).toBe(0);
      expect(await db.searchDoc.count({ where: { sessionId: id, kind: "transcript", text: { startsWith: "quokka" } } })).toBe(count);
      expect(await db.searchDoc.count({ where: { sessionId: id, kind: "topic" } })).toBe(1);
      // Stored as Prisma stores them: read back through Prisma, and found by date.
      expect(await db.searchDoc.findFirst({ where: { sessionId: id, text: "quokka 7" } })).toMatchObject({
        atMs: 7,
        sourceId: null,
        createdAt: new Date(1_700_000_000_007),
      });
      expect(
        await db.searchDoc.count({
          where: { sessionId: id, kind: "transcript", createdAt: { gte: new Date(1_700_000_000_000 + count - 3) } },
        }),
      ).toBe(3);
      expect((await index.search("quokka", { limit: 100 })).length).toBe(count);
      expect(await index.search("zebrafish")).toEqual([]);
    });
  });

  describe("splitDoc", () => {
    it("cuts long text at line ends, and long lines where it must", () => {
      expect(splitDoc("a\nb\nc", 3)).toEqual(["a\nb", "c"]);
      expect(splitDoc("abcdefg", 3)).toEqual(["abc", "def", "g"]);
      expect(splitDoc("\n\n", 3)).toEqual([]);
    });
  });

  describe("snippetAround", () => {
    it("marks every match near the first, whole, case-insensitively", async () => {
      const { snippetAround } = await import("./search-query.ts");
      const text = `${"x".repeat(100)} Zebracorn and zebracorn-42 ${"y".repeat(200)}`;
      expect(snippetLine(snippetAround(text, ["zebracorn"], 20))).toBe(
        `…${"x".repeat(19)} [Zebracorn] and [zebracorn]-42 ${"y".repeat(13)}…`,
      );
      expect(snippetLine(snippetAround("short", ["nothing"]))).toBe("short");
    });
  });
});
