import Link from "next/link";
import { getRuntime } from "@/server/runtime";
import { SearchQuerySchema } from "@/server/api/record-schemas";
import { SEARCH_MAX_CHARS } from "@/server/api/study-schemas";
import { SearchHits } from "../components/SearchHits";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/** Every session searched at once: transcripts, conversations, summaries, marks and parked thoughts. */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Search> }) {
  const raw = await searchParams;
  const q = typeof raw.q === "string" ? raw.q : "";
  const topicAsked = typeof raw.topic === "string" && raw.topic ? raw.topic : undefined;
  const parsed = q ? SearchQuerySchema.safeParse({ q, ...(topicAsked ? { topic: topicAsked } : {}) }) : null;
  const topic = parsed?.success ? parsed.data.topic : undefined;
  const hits = parsed?.success ? await getRuntime().study.history.moments(parsed.data.q, { limit: 50, topic }) : [];
  return (
    <div className="stack">
      <h1>Search your sessions</h1>
      <form className="history-filter panel" method="get" action="/search" role="search" aria-label="Search every session">
        <div>
          <label htmlFor="search-q">Words from a transcript, a conversation, a summary, a note or a parked thought</label>
          <input id="search-q" name="q" type="search" maxLength={SEARCH_MAX_CHARS} defaultValue={q} placeholder="e.g. closures" />
        </div>
        {topic ? <input type="hidden" name="topic" value={topic} /> : null}
        <div className="row">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      {topic ? (
        <p data-testid="search-topic">
          Only sessions on <strong>{topic}</strong>. <Link href={`/search?${new URLSearchParams({ q })}`}>Search every topic</Link>
        </p>
      ) : null}
      {parsed && !parsed.success ? <p className="error">{parsed.error.issues[0]?.message ?? "That search is not valid"}.</p> : null}
      {parsed?.success && hits.length === 0 ? (
        <p className="muted" data-testid="search-empty">
          Nothing in your sessions{topic ? ` on ${topic}` : ""} matches “{parsed.data.q}”. Search matches the words exactly as typed (parts
          of words too): try fewer or shorter words.
        </p>
      ) : null}
      {hits.length > 0 ? <SearchHits hits={hits} /> : null}
      <p>
        <Link href="/">Back to the dashboard</Link>
      </p>
    </div>
  );
}
