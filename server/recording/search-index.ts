// The search index's reads and the app's writes to it (transcripts and chat messages; marks, parked
// thoughts, topics and summaries are indexed by the database's own triggers, see the migration).
// Results are moments: a stretch of transcript or a message, with the session and where to jump.
import type { Db } from "../db/client.ts";
import { planSearch, snippetAround } from "./search-query.ts";

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
  constructor(private readonly db: Db) {}

  /** Best matches first (FTS5's bm25 rank), newest first among short-word-only searches. */
  async search(query: string, options: { limit?: number; excludeSessionId?: string } = {}): Promise<SearchHit[]> {
    const plan = planSearch(query);
    if (!plan) return [];
    const limit = Math.min(Math.max(1, options.limit ?? SEARCH_DEFAULT_LIMIT), SEARCH_MAX_LIMIT);
    const params: unknown[] = [];
    const where: string[] = [];
    let sql: string;
    if (plan.match) {
      sql = `SELECT d.session_id, d.kind, d.at_ms, d.source_id, d.text, s.topic, s.started_at
             FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid JOIN study_sessions s ON s.id = d.session_id
             WHERE search_fts MATCH ?`;
      params.push(plan.match);
    } else {
      sql = `SELECT d.session_id, d.kind, d.at_ms, d.source_id, d.text, s.topic, s.started_at
             FROM search_docs d JOIN study_sessions s ON s.id = d.session_id WHERE 1 = 1`;
    }
    for (const like of plan.likes) {
      where.push(`d.text LIKE ? ESCAPE '\\'`);
      params.push(like);
    }
    if (options.excludeSessionId) {
      where.push("d.session_id <> ?");
      params.push(options.excludeSessionId);
    }
    sql += where.map((w) => ` AND ${w}`).join("");
    sql += plan.match ? " ORDER BY search_fts.rank, d.id DESC LIMIT ?" : " ORDER BY d.id DESC LIMIT ?";
    params.push(limit);
    const rows = await this.db.$queryRawUnsafe<Row[]>(sql, ...params);
    const words = query.trim().split(/\s+/);
    return rows.map((r) => {
      const atMs = r.at_ms === null ? null : Number(r.at_ms);
      const kind = r.kind as SearchKind;
      return {
        sessionId: r.session_id,
        topic: r.topic,
        startedAt: new Date(r.started_at).toISOString(),
        kind,
        atMs: kind === "transcript" || kind === "chat" ? atMs : null,
        snippet: snippetAround(r.text, words),
        href: hrefOf(r.session_id, kind, atMs, r.source_id),
      };
    });
  }

  /** Sessions with a match, best first: the history list's search. */
  async sessionIds(query: string, limit = 500): Promise<string[]> {
    const hits = await this.search(query, { limit: SEARCH_MAX_LIMIT });
    const plan = planSearch(query);
    if (!plan) return [];
    // Every matching session, not only those among the best moments.
    const params: unknown[] = [];
    let sql = plan.match
      ? "SELECT DISTINCT d.session_id AS id FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid WHERE search_fts MATCH ?"
      : "SELECT DISTINCT d.session_id AS id FROM search_docs d WHERE 1 = 1";
    if (plan.match) params.push(plan.match);
    for (const like of plan.likes) {
      sql += ` AND d.text LIKE ? ESCAPE '\\'`;
      params.push(like);
    }
    const all = (await this.db.$queryRawUnsafe<{ id: string }[]>(`${sql} LIMIT ${Math.floor(limit)}`, ...params)).map((r) => r.id);
    const ranked = [...new Set(hits.map((h) => h.sessionId))];
    return [...ranked, ...all.filter((id) => !ranked.includes(id))];
  }

  async add(sessionId: string, docs: readonly NewDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.db.searchDoc.createMany({
      data: docs.map((d) => ({
        sessionId,
        kind: d.kind,
        atMs: Math.round(d.atMs),
        sourceId: d.sourceId ?? null,
        text: d.text,
        createdAt: d.createdAt,
      })),
    });
  }

  /** Replaces a session's documents of one kind (a recording indexed again from the start). */
  async replace(sessionId: string, kind: "transcript" | "chat", docs: readonly NewDoc[]): Promise<void> {
    await this.db.$transaction([
      this.db.searchDoc.deleteMany({ where: { sessionId, kind } }),
      this.db.searchDoc.createMany({
        data: docs.map((d) => ({
          sessionId,
          kind: d.kind,
          atMs: Math.round(d.atMs),
          sourceId: d.sourceId ?? null,
          text: d.text,
          createdAt: d.createdAt,
        })),
      }),
    ]);
  }
}
