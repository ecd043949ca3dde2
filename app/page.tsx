import Link from "next/link";
import { getRuntime } from "@/server/runtime";
import { HistoryQuerySchema, type HistoryQuery } from "@/server/api/study-schemas";
import type { SessionView } from "@/server/sessions/session-view";
import { LiveCard } from "./components/LiveCard";
import { SearchHits } from "./components/SearchHits";
import { PairDevice } from "./components/PairDevice";
import { Heatmap, StreakCard, TopicBars } from "./components/StudyCharts";
import { DueCards } from "./review/DueCards";
import { isFailedEmptySession } from "@/server/study/failed-sessions";
import { dateTimeText } from "@/common/dates";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/** Best matching moments shown above the matching sessions; the search page has the rest. */
const DASHBOARD_MOMENTS = 5;
/** Sessions the history lists at most (newest first). */
const HISTORY_SHOWN = 50;

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { sessions, study, cards } = getRuntime();
  const raw = await searchParams;
  // The same schema as GET /api/sessions; a filter that does not parse is shown and ignored.
  const parsed = HistoryQuerySchema.safeParse({ topic: first(raw.topic), q: first(raw.q) });
  const filter: HistoryQuery = parsed.success ? parsed.data : { topic: undefined, q: undefined };
  const filtering = Boolean(filter.topic || filter.q);
  // Read through the same functions the API uses (GET /api/session/state, /api/sessions, /api/stats).
  const [state, history, stats, topics, due] = await Promise.all([
    sessions.state(),
    study.history.list({ ...filter, take: HISTORY_SHOWN }),
    study.history.stats(),
    study.history.recentTopics(50),
    cards.dueByTopic(),
  ]);
  const ended = history.filter((s) => s.status === "ended");
  // Starts that failed before any study are kept, but shown only on request (?failed=show).
  const showFailed = first(raw.failed) === "show";
  const failed = ended.filter(isFailedEmptySession);
  const past = showFailed ? ended : ended.filter((s) => !isFailedEmptySession(s));
  // The moments come from the sessions listed below, so the two never disagree (issue 40: a topic's
  // filter with a search listed another topic's moments over "No session matches").
  const moments = filter.q
    ? await study.history.moments(filter.q, { limit: DASHBOARD_MOMENTS, topic: filter.topic, sessionIds: past.map((s) => s.id) })
    : [];
  const noHistoryYet = !filtering && ended.length === 0;
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <LiveCard initial={state} />
      <DueCards byTopic={due} />
      <div className="charts">
        <Heatmap stats={stats} />
        <div className="stack">
          <StreakCard stats={stats} />
          <TopicBars stats={stats} />
        </div>
      </div>
      <section aria-labelledby="history-heading" className="stack">
        <h2 id="history-heading">History</h2>
        {noHistoryYet && state.session ? (
          <p className="muted">Your first session is under way: it shows here, with its summary, when it ends.</p>
        ) : noHistoryYet ? (
          <div className="panel notice">
            <p>
              <strong>No study sessions yet.</strong> Start your first one: pick a topic, say how much energy you have, and choose your
              tutor agent. StudyLoop keeps the time, your parked thoughts and your wins.
            </p>
            <Link className="button primary" href="/study">
              Start studying
            </Link>
          </div>
        ) : (
          <>
            <form className="history-filter panel" method="get" action="/" role="search" aria-label="Find sessions">
              <div>
                <label htmlFor="history-topic">Topic</label>
                <select id="history-topic" name="topic" defaultValue={filter.topic ?? ""}>
                  <option value="">All topics</option>
                  {topics.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor="history-q">Search transcripts, conversations, summaries, notes and parked thoughts</label>
                <input id="history-q" name="q" type="search" maxLength={200} defaultValue={filter.q ?? ""} placeholder="e.g. monad" />
              </div>
              <div className="row">
                <button type="submit" className="primary">
                  Search
                </button>
                {filtering ? (
                  <Link className="button" href="/">
                    Show all
                  </Link>
                ) : null}
              </div>
            </form>
            {moments.length > 0 ? (
              <section aria-labelledby="moments-heading" className="stack">
                <h3 id="moments-heading">Best matching moments</h3>
                <SearchHits hits={moments} />
                <p>
                  <Link href={`/search?${new URLSearchParams({ q: filter.q ?? "", ...(filter.topic ? { topic: filter.topic } : {}) })}`}>
                    Every match for “{filter.q}”{filter.topic ? ` on ${filter.topic}` : ""}
                  </Link>
                </p>
              </section>
            ) : null}
            {!parsed.success ? (
              <p className="error">{parsed.error.issues[0]?.message ?? "That search is not valid"}: showing every session.</p>
            ) : null}
            {past.length === 0 && !filtering ? (
              <p className="muted" data-testid="history-empty">
                No finished study sessions yet: only starts that failed before any study.
              </p>
            ) : past.length === 0 ? (
              <p className="muted" data-testid="history-empty">
                No session matches{filter.topic ? ` the topic “${filter.topic}”` : ""}
                {filter.q ? `${filter.topic ? " and" : ""} “${filter.q}”` : ""}. Try other words, or show all sessions.
              </p>
            ) : (
              <ul className="history" data-testid="history">
                {past.map((s) => (
                  <HistoryItem key={s.id} session={s} />
                ))}
              </ul>
            )}
            {failed.length > 0 ? (
              <p className="muted" data-testid="failed-sessions">
                {showFailed ? (
                  <Link href={hrefWith(filter, false)}>Hide the sessions that failed before any study</Link>
                ) : (
                  <Link href={hrefWith(filter, true)}>
                    Show {failed.length} {failed.length === 1 ? "session" : "sessions"} that failed before any study
                  </Link>
                )}
              </p>
            ) : null}
          </>
        )}
      </section>
      <PairDevice />
    </div>
  );
}

function HistoryItem({ session: s }: { session: SessionView }) {
  const summary = s.summary;
  return (
    <li className="panel">
      <Link href={`/sessions/${s.id}`}>
        <strong>{s.topic}</strong>
        <div className="meta">
          {dateTimeText(s.startedAt)} · {s.durationMinutes ?? 0} min
          {summary ? ` (${summary.focusMinutes} min focus)` : ""} · {s.agent} · {s.winCount} {s.winCount === 1 ? "win" : "wins"} ·{" "}
          {s.struggleCount} {s.struggleCount === 1 ? "struggle" : "struggles"}
        </div>
        {summary && (summary.wins.length > 0 || summary.parked.length > 0) ? (
          <div className="meta">
            {summary.wins.length ? `Wins: ${summary.wins.join(", ")}` : ""}
            {summary.wins.length && summary.parked.length ? " · " : ""}
            {summary.parked.length ? `Parked: ${summary.parked.join(" · ")}` : ""}
          </div>
        ) : null}
        {s.explanation ? <div className="meta">{s.explanation}</div> : null}
      </Link>
    </li>
  );
}

function hrefWith(filter: HistoryQuery, failed: boolean): string {
  const params = new URLSearchParams();
  if (filter.topic) params.set("topic", filter.topic);
  if (filter.q) params.set("q", filter.q);
  if (failed) params.set("failed", "show");
  const query = params.toString();
  return query ? `/?${query}` : "/";
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
