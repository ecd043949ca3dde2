// The search index's reads and the app's writes to it (transcripts and chat messages; marks, parked
// thoughts, topics and summaries are indexed by the database's own triggers, see the migration).
// Results are moments: a stretch of transcript or a message, with the session and where to jump.
import type { Db } from "../db/client.ts";
import { providerOf } from "../db/provider-of.ts";
import { searchWords, snippetAround } from "./search-query.ts";
import {
  docWrites,
  searchSql,
  SESSION_SCAN_PAGE,
  SESSION_WALK,
  SESSION_WINDOW,
  type DocRow,
  type MomentOptions,
  type PagedListSql,
  type SearchSql,
  type WindowListSql,
} from "./search-sql.ts";

/** Which sessions the moments come from (search-sql.ts's MomentOptions without the limit). */
export type MomentFilter = Omit<MomentOptions, "limit">;

export type SearchKind = "topic" | "summary" | "mark" | "parked" | "transcript" | "chat";

export interface SearchHit {
  readonly sessionId: string;
  readonly topic: string;
  readonly startedAt: string;
  readonly kind: SearchKind;
  /** Milliseconds from the recording's start (transcript) or the session's start (chat); null otherwise. */
  readonly atMs: number | null;
  /** The text around the match, the match between HIT_START and HIT_END. */
  readonly snippet: string;
  /** Where the moment opens: the player at its time, the chat at its message, or the session. */
  readonly href: string;
}

export interface NewDoc {
  readonly kind: "transcript" | "chat";
  readonly atMs: number;
  readonly sourceId?: string;
  readonly text: string;
  readonly createdAt: Date;
}

export const SearchIndexLimits = {
  /**
   * Documents stored in one write: ~16 KB of text, ~5-10 ms of SQLite's trigram indexing here, so a
   * page's request waits at most that for a write in progress. One write of a whole 1 MB piece of a
   * recording (~300 documents) held the server for 100-600 ms.
   */
  DOCS_PER_WRITE: 8,
} as const;

export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;
/** Stored text per document at most: transcripts are cut into pieces of about this size. */
export const DOC_MAX_CHARS = 2_000;

interface Row {
  session_id: string;
  kind: string;
  at_ms: number | bigint | null;
  source_id: string | null;
  text: string;
  topic: string;
  started_at: string | number | Date;
}

export function hrefOf(sessionId: string, kind: string, atMs: number | null, sourceId: string | null): string {
  // Millisecond precision: a moment is the last one its text was on screen, and the next event may
  // erase it a few milliseconds later (clear), so rounding could open the player past it.
  if (kind === "transcript" && atMs !== null) return `/sessions/${sessionId}?t=${Math.round(atMs) / 1000}`;
  if (kind === "chat" && sourceId) return `/sessions/${sessionId}#message-${sourceId}`;
  return `/sessions/${sessionId}`;
}

/** Splits text into documents of at most DOC_MAX_CHARS, at line ends where it can. Pure. */
export function splitDoc(text: string, max = DOC_MAX_CHARS): string[] {
  const out: string[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    for (let at = 0; at < Math.max(1, line.length); at += max) {
      const piece = line.slice(at, at + max);
      if (current && current.length + 1 + piece.length > max) {
        out.push(current);
        current = piece;
      } else current = current ? `${current}\n${piece}` : piece;
    }
  }
  if (current.trim()) out.push(current);
  return out.filter((d) => d.trim());
}

export class SearchIndex {
  private readonly sql: SearchSql;

  constructor(
    private readonly db: Db,
    /** PostgreSQL's list search with a topic: how many newest sessions are looked at before the whole index (tests set it small). */
    private readonly sessionWindow = SESSION_WINDOW,
    /** PostgreSQL's list search: how many sessions are checked one by one before a range of the index (tests set it small). */
    private readonly sessionWalk = SESSION_WALK,
  ) {
    this.sql = searchSql(providerOf(db));
  }

  /** Best matches first (bm25 on SQLite, search-sql.ts), newest first among short-word-only searches. */
  async search(query: string, options: MomentFilter & { limit?: number } = {}): Promise<SearchHit[]> {
    const words = searchWords(query);
    if (words.length === 0 || options.sessionIds?.length === 0) return [];
    const limit = Math.min(Math.max(1, options.limit ?? SEARCH_DEFAULT_LIMIT), SEARCH_MAX_LIMIT);
    const rows = await this.db.$queryRaw<Row[]>(this.sql.moments(words, { ...options, limit }));
    const typed = query.trim().split(/\s+/);
    return rows.map((r) => {
      const atMs = r.at_ms === null ? null : Number(r.at_ms);
      const kind = r.kind as SearchKind;
      return {
        sessionId: r.session_id,
        topic: r.topic,
        startedAt: new Date(r.started_at).toISOString(),
        kind,
        atMs: kind === "transcript" || kind === "chat" ? atMs : null,
        snippet: snippetAround(r.text, typed),
        href: hrefOf(r.session_id, kind, atMs, r.source_id),
      };
    });
  }

  /**
   * The newest sessions with a match (of one topic, when given): the history list's search, which
   * shows sessions newest first. Bounded by what is shown or by the word's matches, never by the
   * history's size (search-sql.ts says how each database does it).
   */
  async sessionIds(query: string, options: { limit?: number; topic?: string } = {}): Promise<string[]> {
    const words = searchWords(query);
    if (words.length === 0) return [];
    const limit = Math.max(1, Math.floor(options.limit ?? 100));
    const { pages, topicWindow } = this.sql;
    return options.topic && topicWindow
      ? this.byWindow(topicWindow, words, options.topic, limit)
      : this.byPages(pages, words, options.topic, limit);
  }

  /**
   * The newest matching documents (the index walks them newest first, a page at a time) name `limit`
   * sessions, so the answer holds only sessions started since the `limit`-th newest of those (t0).
   * Every matching document from the pages' last one on has been read; a session since t0 not yet
   * named can only match in an older document. PostgreSQL checks those sessions one by one when
   * there are few; otherwise every match between the first document of any session since t0 (a
   * session's documents are all written after its first) and the pages' last is read. Exact.
   */
  private async byPages(sql: PagedListSql, words: string[], topic: string | undefined, limit: number): Promise<string[]> {
    // 1. Newest matching documents, a page at a time, until they name `limit` sessions (or run out).
    const found = new Set<string>();
    let before = Number.MAX_SAFE_INTEGER;
    let exhausted = false;
    while (found.size < limit && !exhausted) {
      const rows = await this.db.$queryRaw<{ id: string; doc: number | bigint }[]>(sql.matchingPage(words, topic, before));
      for (const r of rows) found.add(r.id);
      exhausted = rows.length < SESSION_SCAN_PAGE;
      if (rows.length > 0) before = Number(rows[rows.length - 1]!.doc);
    }
    const candidates = [...found];
    if (!exhausted) candidates.push(...(await this.olderMatches(sql, words, topic, candidates, limit, before)));
    if (candidates.length === 0) return [];
    const rows = await this.db.$queryRaw<{ id: string }[]>(sql.newestSessions(candidates, topic, limit));
    return rows.map((r) => r.id);
  }

  /** 2. The sessions since t0 that only documents older than `before` match (some may repeat `found`). */
  private async olderMatches(
    sql: PagedListSql,
    words: string[],
    topic: string | undefined,
    found: readonly string[],
    limit: number,
    before: number,
  ): Promise<string[]> {
    if (sql.sessionsSince) {
      const rows = await this.db.$queryRaw<{ id: string | null }[]>(sql.sessionsSince(words, topic, found, limit, this.sessionWalk));
      if (!rows.some((r) => r.id === null)) return rows.map((r) => r.id!);
    }
    const first = await this.db.$queryRaw<{ first: number | bigint | null }[]>(sql.firstDocSince(found, limit));
    const rows = await this.db.$queryRaw<{ id: string }[]>(sql.matchingSince(words, topic, Number(first[0]?.first ?? 0), before));
    return rows.map((r) => r.id);
  }

  /**
   * The newest `window` sessions first: when `limit` of them match, they are the answer (nothing
   * older can come before them). Otherwise every match, read through the index, names the answer.
   */
  private async byWindow(sql: WindowListSql, words: string[], topic: string, limit: number): Promise<string[]> {
    const recent = await this.db.$queryRaw<{ id: string }[]>(sql.inWindow(words, topic, limit, this.sessionWindow));
    if (recent.length >= limit) return recent.map((r) => r.id);
    const rows = await this.db.$queryRaw<{ id: string }[]>(sql.fromIndex(words, topic, limit));
    return rows.map((r) => r.id);
  }

  /**
   * Stores documents a few at a time, letting the server answer between writes (and stopping between
   * them once `signal` is aborted: a server that stops does not wait for a flood's index). Each costs
   * SQLite's trigram index about a millisecond here, and a flood's recording taken in at a session's
   * end is thousands of them (docs/performance.md, "Round 6: a session's end").
   */
  async add(sessionId: string, docs: readonly NewDoc[], signal?: AbortSignal): Promise<void> {
    for (let at = 0; at < docs.length; at += SearchIndexLimits.DOCS_PER_WRITE) {
      if (at > 0) await nextTurn();
      signal?.throwIfAborted();
      const rows = docs.slice(at, at + SearchIndexLimits.DOCS_PER_WRITE).map((d) => rowOf(sessionId, d));
      await this.db.$executeRaw(docWrites.insert(rows));
    }
  }

  /**
   * Replaces a session's documents of one kind (a recording indexed again from the start), a few at a
   * time as `add` (a document's delete costs the index as much as its insert). Not one transaction: a
   * search meanwhile may find part of them. The caller marks the transcript complete only after this
   * returns, so a crash midway is indexed again (catchUp).
   */
  async replace(sessionId: string, kind: "transcript" | "chat", docs: readonly NewDoc[], signal?: AbortSignal): Promise<void> {
    while ((await this.db.$executeRaw(docWrites.deleteSome(sessionId, kind, SearchIndexLimits.DOCS_PER_WRITE))) > 0) {
      await nextTurn();
      signal?.throwIfAborted();
    }
    await this.add(sessionId, docs, signal);
  }
}

function rowOf(sessionId: string, d: NewDoc): DocRow {
  return { sessionId, kind: d.kind, atMs: Math.round(d.atMs), sourceId: d.sourceId ?? null, text: d.text, createdAt: d.createdAt };
}

/** One turn of the event loop: what waits (a page's request, a keystroke) goes first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
