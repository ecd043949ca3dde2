// The search index's SQL on each database. SQLite: the FTS5 table search_fts (trigram tokenizer),
// ranked by bm25. PostgreSQL: a pg_trgm GIN index on search_docs.text that ILIKE uses
// (prisma/postgresql/migrations/20261203010000_history_and_search), ranked by a BM25-like score of
// how often each word occurs against the document's length. Both match every word literally, as a
// case-insensitive substring. Queries are Prisma.sql templates, so placeholders follow the provider.
// The history list's search pages through the matches newest first, then makes the answer exact
// among the sessions started since the page's answer would start (PostgreSQL checks each such
// session's documents when they are few). With a topic, PostgreSQL looks
// among the topic's newest sessions instead, then reads every match through the index: its walk of
// the matches newest first (the primary key, a GIN index has no order) read every document when
// the topic had few or none.
import { Prisma } from "../db/generated/client.ts";
import type { Provider } from "../db/database-target.ts";
import { isTrigramWord, likePattern, planSearch } from "./search-query.ts";

/**
 * The moments search ranks the newest this many matches and shows the best of them: a word found in
 * every session would otherwise rank them all (3.4 s at 50,000 sessions, issue 20). A search with
 * fewer matches ranks every one, as before.
 */
export const RANKED_MATCHES = 1_000;

/** Matching documents read per step when the history list looks for its newest sessions with a match. */
export const SESSION_SCAN_PAGE = 500;

/**
 * PostgreSQL's list search checks at most this many sessions, one by one (each one's documents off
 * the session_id index), for a match the pages of matches did not reach; with more, it reads every
 * match in a range of documents instead. The range is bounded by the first document of those
 * sessions, which in a history indexed by kind (the migration that built the index, a bulk import)
 * lies before every later session's marks and summaries: 230,000 documents at 50,000 sessions.
 */
export const SESSION_WALK = 1_000;

/**
 * PostgreSQL's list search with a topic looks among this many newest sessions of the topic first:
 * a word in many of them is found there, at a cost bounded by the window. Otherwise every match is
 * read through the trigram index, at a cost bounded by the word's matches, never by walking every
 * document (a topic with no match walked all 285,000 at 50,000 sessions: 380 ms).
 */
export const SESSION_WINDOW = 200;

export interface MomentOptions {
  readonly limit: number;
  readonly excludeSessionId?: string;
  /** Only sessions on this topic (the history's topic filter). */
  readonly topic?: string;
  /** Only these sessions (the ones a page lists), so its moments and its list agree. */
  readonly sessionIds?: readonly string[];
}

export interface SearchSql {
  /** Best matches first. Columns: session_id, kind, at_ms, source_id, text, topic, started_at. */
  moments(words: readonly string[], options: MomentOptions): Prisma.Sql;
  /** How the history list finds its newest sessions with a match (search-index.ts's sessionIds). */
  readonly pages: PagedListSql;
  /** PostgreSQL, with a topic: the newest sessions of the topic first, else every match through the index. */
  readonly topicWindow?: WindowListSql;
}

/**
 * Pages of the matches, newest first, until they name `limit` sessions; then the sessions started
 * since the `limit`-th newest of those (no older one can be in the answer) that only older documents
 * match: checked one by one when few (sessionsSince), else every match from the first document of
 * those sessions up to the pages' last.
 */
export interface PagedListSql {
  /** A page of matching documents (id = session, doc), newest first, below `before`. */
  matchingPage(words: readonly string[], topic: string | undefined, before: number): Prisma.Sql;
  /** The sessions of every matching document in [from, before) (id). PostgreSQL names each once: a common word matches thousands of documents. */
  matchingSince(words: readonly string[], topic: string | undefined, from: number, before: number): Prisma.Sql;
  /**
   * PostgreSQL: the sessions (of a topic) started since the `limit`-th newest of `ids`, not among
   * them, with a match (id); one row with a null id when more than `walk` sessions started since.
   */
  sessionsSince?(words: readonly string[], topic: string | undefined, ids: readonly string[], limit: number, walk: number): Prisma.Sql;
  /** These sessions (of a topic), newest first (id). */
  newestSessions(ids: readonly string[], topic: string | undefined, limit: number): Prisma.Sql;
  /** The first document (first) of any session started since the `limit`-th newest of these. */
  firstDocSince(ids: readonly string[], limit: number): Prisma.Sql;
}

/** The newest sessions first (a window), else every match through the index. */
export interface WindowListSql {
  /** The newest `limit` sessions of a topic with a match among its newest `window` (id). */
  inWindow(words: readonly string[], topic: string, limit: number, window: number): Prisma.Sql;
  /** The newest `limit` sessions of a topic with a match, from every match (id). */
  fromIndex(words: readonly string[], topic: string, limit: number): Prisma.Sql;
}

const and = (parts: Prisma.Sql[]) => (parts.length ? Prisma.sql` AND ${Prisma.join(parts, " AND ")}` : Prisma.empty);
const ofTopic = (topic: string | undefined) =>
  topic ? Prisma.sql` JOIN study_sessions s ON s.id = d.session_id AND s.topic = ${topic}` : Prisma.empty;

const sqlitePaged: PagedListSql = {
  matchingPage(words, topic, before) {
    const { sql, doc } = sqliteMatching(words, topic);
    return Prisma.sql`${sql} AND ${doc} < ${before} ORDER BY ${doc} DESC LIMIT ${SESSION_SCAN_PAGE}`;
  },
  matchingSince(words, topic, from, before) {
    // Not DISTINCT here: around FTS5's match it made the topic search ~25 ms slower (round 5).
    const { sql, doc } = sqliteMatching(words, topic);
    return Prisma.sql`${sql} AND ${doc} >= ${from} AND ${doc} < ${before}`;
  },
  newestSessions(ids, topic, limit) {
    return Prisma.sql`SELECT id FROM study_sessions WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))${
      topic ? Prisma.sql` AND topic = ${topic}` : Prisma.empty
    } ORDER BY started_at DESC LIMIT ${limit}`;
  },
  firstDocSince(ids, limit) {
    // CROSS JOIN keeps this order: the sessions off the started_at index, then their documents.
    return Prisma.sql`SELECT min(d.id) AS first FROM study_sessions s CROSS JOIN search_docs d ON d.session_id = s.id
      WHERE s.started_at >= (SELECT started_at FROM study_sessions WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
        ORDER BY started_at DESC LIMIT 1 OFFSET ${limit - 1})`;
  },
};

/**
 * The moments' filters on the session (each a condition on d.session_id, so the match is still read
 * off the index first). `ids` is how this database takes a list of ids as one parameter.
 */
function momentFilters(options: MomentOptions, ids: (list: readonly string[]) => Prisma.Sql): Prisma.Sql[] {
  const filters: Prisma.Sql[] = [];
  if (options.excludeSessionId) filters.push(Prisma.sql`d.session_id <> ${options.excludeSessionId}`);
  if (options.topic) filters.push(Prisma.sql`d.session_id IN (SELECT id FROM study_sessions WHERE topic = ${options.topic})`);
  if (options.sessionIds) filters.push(ids(options.sessionIds));
  return filters;
}

const sqlite: SearchSql = {
  pages: sqlitePaged,
  moments(words, options) {
    const { limit } = options;
    const plan = planSearch(words.join(" "))!;
    const filters = plan.likes.map((like) => Prisma.sql`d.text LIKE ${like} ESCAPE '\\'`);
    filters.push(...momentFilters(options, (ids) => Prisma.sql`d.session_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`));
    const columns = Prisma.sql`d.session_id, d.kind, d.at_ms, d.source_id, d.text, s.topic, s.started_at`;
    if (!plan.match) {
      return Prisma.sql`SELECT ${columns} FROM search_docs d JOIN study_sessions s ON s.id = d.session_id
          WHERE 1 = 1${and(filters)} ORDER BY d.id DESC LIMIT ${limit}`;
    }
    // bm25 over the newest RANKED_MATCHES matches only: FTS5 walks its rowids newest first without
    // ranking, so a common word costs the same at any history size. The best `limit` are picked
    // before the join (a document's session always exists: the foreign key cascades).
    return Prisma.sql`SELECT ${columns} FROM (
          SELECT doc, score FROM (
            SELECT search_fts.rowid AS doc, bm25(search_fts) AS score FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
            WHERE search_fts MATCH ${plan.match}${and(filters)} ORDER BY search_fts.rowid DESC LIMIT ${RANKED_MATCHES}
          ) ORDER BY score, doc DESC LIMIT ${limit}
        ) m JOIN search_docs d ON d.id = m.doc JOIN study_sessions s ON s.id = d.session_id
        ORDER BY m.score, d.id DESC`;
  },
};

function sqliteMatching(words: readonly string[], topic: string | undefined): { sql: Prisma.Sql; doc: Prisma.Sql } {
  const plan = planSearch(words.join(" "))!;
  const likes = and(plan.likes.map((like) => Prisma.sql`d.text LIKE ${like} ESCAPE '\\'`));
  if (plan.match) {
    const doc = Prisma.raw("search_fts.rowid");
    return {
      sql: Prisma.sql`SELECT d.session_id AS id, ${doc} AS doc FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid${ofTopic(topic)}
        WHERE search_fts MATCH ${plan.match}${likes}`,
      doc,
    };
  }
  const doc = Prisma.raw("d.id");
  return { sql: Prisma.sql`SELECT d.session_id AS id, ${doc} AS doc FROM search_docs d${ofTopic(topic)} WHERE 1 = 1${likes}`, doc };
}

/** BM25's usual constants, and a typical document's length in characters (transcripts are cut at 2,000). */
const K1 = 1.2;
const B = 0.75;
const TYPICAL_DOC_CHARS = 400;

/** Every word an ILIKE (the GIN trigram index finds those of three characters or more). */
function pgFilters(words: readonly string[]): Prisma.Sql[] {
  return words.map((w) => Prisma.sql`d.text ILIKE ${likePattern(w)}::text ESCAPE '\\'`);
}

/** Higher is better: each word's occurrences, saturated and normalised by length as BM25 does (no IDF). */
function pgScore(words: readonly string[]): Prisma.Sql {
  const terms = words.map((w) => {
    const word = w.toLowerCase();
    const tf = Prisma.sql`((char_length(lower(d.text)) - char_length(replace(lower(d.text), ${word}::text, '')))::float8 / ${[...word].length}::float8)`;
    const norm = Prisma.sql`(${1 - B}::float8 + ${B}::float8 * char_length(d.text) / ${TYPICAL_DOC_CHARS}::float8)`;
    return Prisma.sql`(${tf} * ${K1 + 1}::float8 / (${tf} + ${K1}::float8 * ${norm}))`;
  });
  return Prisma.join(terms, " + ");
}

/** When the `limit`-th newest of these sessions started. */
const pgNthNewest = (ids: readonly string[], limit: number) =>
  Prisma.sql`SELECT started_at FROM study_sessions WHERE id = ANY(${[...ids]}::text[]) ORDER BY started_at DESC LIMIT 1 OFFSET ${limit - 1}`;

const postgresPaged: PagedListSql = {
  matchingPage(words, topic, before) {
    return Prisma.sql`SELECT d.session_id AS id, d.id AS doc FROM search_docs d${ofTopic(topic)}
      WHERE ${Prisma.join(pgFilters(words), " AND ")} AND d.id < ${before}::bigint ORDER BY d.id DESC LIMIT ${SESSION_SCAN_PAGE}`;
  },
  matchingSince(words, topic, from, before) {
    return Prisma.sql`SELECT DISTINCT d.session_id AS id FROM search_docs d${ofTopic(topic)}
      WHERE ${Prisma.join(pgFilters(words), " AND ")} AND d.id >= ${from}::bigint AND d.id < ${before}::bigint`;
  },
  sessionsSince(words, topic, ids, limit, walk) {
    // The sessions off the started_at (or topic, started_at) index, newest first, at most walk + 1;
    // each one's documents off the session_id index (LIMIT 1 in LATERAL keeps it a loop: PostgreSQL
    // otherwise hashed every match read through the trigram index, 26,000 for "recursion"). The
    // count is a one-time filter: with too many sessions none is checked.
    const order = topic ? Prisma.sql`topic DESC, started_at DESC` : Prisma.sql`started_at DESC`;
    return Prisma.sql`WITH s AS MATERIALIZED (
        SELECT id FROM study_sessions WHERE started_at >= (${pgNthNewest(ids, limit)})${topic ? Prisma.sql` AND topic = ${topic}` : Prisma.empty}
        ORDER BY ${order} LIMIT ${walk + 1}
      )
      SELECT s.id FROM s CROSS JOIN LATERAL (
        SELECT 1 FROM search_docs d WHERE d.session_id = s.id AND ${Prisma.join(pgFilters(words), " AND ")} LIMIT 1
      ) m WHERE (SELECT count(*) FROM s) <= ${walk} AND s.id <> ALL(${[...ids]}::text[])
      UNION ALL SELECT NULL WHERE (SELECT count(*) FROM s) > ${walk}`;
  },
  newestSessions(ids, topic, limit) {
    return Prisma.sql`SELECT id FROM study_sessions WHERE id = ANY(${[...ids]}::text[])${
      topic ? Prisma.sql` AND topic = ${topic}` : Prisma.empty
    } ORDER BY started_at DESC LIMIT ${limit}`;
  },
  firstDocSince(ids, limit) {
    // LATERAL keeps this order (a plain join was hashed over every document): the sessions off the
    // started_at index, then each one's documents off the session_id index.
    return Prisma.sql`SELECT min(f.first) AS first FROM study_sessions s
      CROSS JOIN LATERAL (SELECT min(d.id) AS first FROM search_docs d WHERE d.session_id = s.id) f
      WHERE s.started_at >= (${pgNthNewest(ids, limit)})`;
  },
};

const postgresWindow: WindowListSql = {
  inWindow(words, topic, limit, window) {
    // The topic's newest sessions off the (topic, started_at) index (ordered by both, or PostgreSQL
    // walks the started_at index past every other topic's), each one's documents off the session_id index.
    return Prisma.sql`SELECT s.id FROM (
        SELECT id, started_at FROM study_sessions WHERE topic = ${topic} ORDER BY topic DESC, started_at DESC LIMIT ${window}
      ) s WHERE EXISTS (SELECT 1 FROM search_docs d WHERE d.session_id = s.id AND ${Prisma.join(pgFilters(words), " AND ")})
      ORDER BY s.started_at DESC LIMIT ${limit}`;
  },
  fromIndex(words, topic, limit) {
    // MATERIALIZED: the matches are read once through the trigram index (a bitmap scan), never by a
    // walk of the sessions that looks up each one's documents.
    return Prisma.sql`WITH m AS MATERIALIZED (SELECT DISTINCT d.session_id FROM search_docs d WHERE ${Prisma.join(pgFilters(words), " AND ")})
      SELECT s.id FROM m JOIN study_sessions s ON s.id = m.session_id AND s.topic = ${topic}
      ORDER BY s.started_at DESC LIMIT ${limit}`;
  },
};

const postgresql: SearchSql = {
  pages: postgresPaged,
  topicWindow: postgresWindow,
  moments(words, options) {
    const { limit } = options;
    const filters = pgFilters(words);
    filters.push(...momentFilters(options, (ids) => Prisma.sql`d.session_id = ANY(${[...ids]}::text[])`));
    const ranked = words.filter(isTrigramWord);
    const columns = Prisma.sql`d.session_id, d.kind, d.at_ms, d.source_id, d.text, s.topic, s.started_at`;
    if (!ranked.length) {
      return Prisma.sql`SELECT ${columns} FROM search_docs d JOIN study_sessions s ON s.id = d.session_id
        WHERE ${Prisma.join(filters, " AND ")} ORDER BY d.id DESC LIMIT ${limit}`;
    }
    // Scored over the newest RANKED_MATCHES matches only, as on SQLite; the best `limit` picked before
    // the join, which PostgreSQL otherwise made for all of them (half the search's time at 50,000).
    return Prisma.sql`SELECT ${columns} FROM (
        SELECT id, score FROM (
          SELECT d.id, ${pgScore(ranked)} AS score FROM search_docs d
          WHERE ${Prisma.join(filters, " AND ")} ORDER BY d.id DESC LIMIT ${RANKED_MATCHES}
        ) r ORDER BY score DESC, id DESC LIMIT ${limit}
      ) m JOIN search_docs d ON d.id = m.id JOIN study_sessions s ON s.id = d.session_id
      ORDER BY m.score DESC, d.id DESC`;
  },
};

export function searchSql(provider: Provider): SearchSql {
  return provider === "postgresql" ? postgresql : sqlite;
}

/** A document as the search index stores it (search_docs). */
export interface DocRow {
  readonly sessionId: string;
  readonly kind: string;
  readonly atMs: number;
  readonly sourceId: string | null;
  readonly text: string;
  readonly createdAt: Date;
}

/**
 * Writes of the index, the same on both databases. Raw SQL, not Prisma's createMany: Prisma 7
 * compiles a createMany's plan on every call (~4 ms here, a quarter of indexing a flood's recording).
 * Dates are bound as Dates, so each database stores them as Prisma does.
 */
export const docWrites = {
  insert(rows: readonly DocRow[]): Prisma.Sql {
    const values = rows.map((r) => Prisma.sql`(${r.sessionId}, ${r.kind}, ${r.atMs}, ${r.sourceId}, ${r.text}, ${r.createdAt})`);
    return Prisma.sql`INSERT INTO "search_docs" ("session_id", "kind", "at_ms", "source_id", "text", "created_at") VALUES ${Prisma.join(values)}`;
  },
  /** Deletes at most `limit` of a session's documents of one kind; the count says whether more are left. */
  deleteSome(sessionId: string, kind: string, limit: number): Prisma.Sql {
    return Prisma.sql`DELETE FROM "search_docs" WHERE "id" IN (
      SELECT "id" FROM "search_docs" WHERE "session_id" = ${sessionId} AND "kind" = ${kind} LIMIT ${limit})`;
  },
};
