// Search results as moments: the session, where in it, the text around the match (the match marked),
// and a link that opens the player at that time or the chat at that message.
import Link from "next/link";
import type { SearchHit } from "@/server/recording/search-index";
import { snippetParts } from "@/common/search-snippets";
import { clock } from "@/common/transcript-text";
import { dateTimeText } from "@/common/dates";

const KIND_WORDS: Record<SearchHit["kind"], string> = {
  topic: "topic",
  summary: "summary",
  mark: "topic mark",
  parked: "parked thought",
  transcript: "transcript",
  chat: "conversation",
};

export function SearchHits({ hits }: { hits: readonly SearchHit[] }) {
  return (
    <ul className="search-hits" data-testid="search-hits">
      {hits.map((hit, i) => (
        <li key={`${hit.href}-${i}`} className="panel">
          <Link href={hit.href} data-testid="search-hit">
            <strong>{hit.topic}</strong>
            <div className="meta">
              {dateTimeText(hit.startedAt)} · {KIND_WORDS[hit.kind]}
              {hit.atMs !== null ? ` at ${clock(hit.atMs)}` : ""}
            </div>
          </Link>
          <div className="snippet">
            {snippetParts(hit.snippet).map((part, j) => (part.hit ? <mark key={j}>{part.text}</mark> : <span key={j}>{part.text}</span>))}
          </div>
        </li>
      ))}
    </ul>
  );
}
