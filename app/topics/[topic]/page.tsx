import Link from "next/link";
import { notFound } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { topicField } from "@/server/cards/card-schemas";
import { originWords } from "@/server/cards/card-view";
import { MakeCard } from "../../review/MakeCard";
import { cardFromMark } from "../../review/prefill";
import { ImportCards } from "./ImportCards";
import { TOPIC_WEEKS } from "@/server/cards/topic-model";
import "../../review/review.css";
import { formatDate } from "@/common/dates";

export const dynamic = "force-dynamic";

const percent = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const day = (iso: string) => formatDate(iso, { dateStyle: "medium" });

/** One topic as the learner's model of it: cards, retention from reviews, struggles and wins over time. */
export default async function TopicPage({ params }: { params: Promise<{ topic: string }> }) {
  const raw = safeDecode((await params).topic);
  const parsed = topicField.safeParse(raw);
  if (!parsed.success) notFound();
  const topic = parsed.data;
  const { model, cards, struggles } = await getRuntime().cards.topicPage(topic);
  const maxMarks = Math.max(1, ...model.weeks.map((w) => Math.max(w.wins, w.struggles)));
  const reviewQuery = new URLSearchParams({ topic });
  return (
    <div className="stack">
      <h1>{topic}</h1>
      <section className="panel stack" aria-labelledby="model-heading" data-testid="topic-model">
        <h2 id="model-heading">How it is going</h2>
        <dl className="topic-stats">
          <div>
            <dt>Cards</dt>
            <dd data-testid="topic-cards">{model.cards}</dd>
          </div>
          <div>
            <dt>Due now</dt>
            <dd data-testid="topic-due">{model.due}</dd>
          </div>
          <div>
            <dt title="Of your answers to cards you had already learned, the share you recalled">Retention</dt>
            <dd data-testid="topic-retention">{percent(model.retention)}</dd>
          </div>
          <div>
            <dt title="FSRS's estimate of the chance you would recall a reviewed card right now">Recall now</dt>
            <dd>{percent(model.recallNow)}</dd>
          </div>
          <div>
            <dt>Wins</dt>
            <dd>{model.wins}</dd>
          </div>
          <div>
            <dt>Struggles</dt>
            <dd>{model.struggles}</dd>
          </div>
        </dl>
        <div className="row">
          {model.due > 0 ? (
            <Link className="button primary" href={`/review?${reviewQuery}`} prefetch={false}>
              Review {model.due} due card{model.due === 1 ? "" : "s"}
            </Link>
          ) : null}
          <MakeCard origin={{ kind: "hand" }} topic={topic} label="Write a card" className="" />
          <a className="button" href={`/api/cards/export?${reviewQuery}`} download>
            Export for Anki
          </a>
        </div>
      </section>

      <section className="panel" aria-labelledby="weeks-heading">
        <h2 id="weeks-heading">Week by week</h2>
        <p className="muted">The last {TOPIC_WEEKS} weeks; the totals above count all of them.</p>
        {model.weeks.length === 0 ? (
          <p className="muted">Nothing yet: wins, struggles and reviews on {topic} show here as they happen.</p>
        ) : (
          <table className="weeks" data-testid="topic-weeks">
            <thead>
              <tr>
                <th scope="col">Week of</th>
                <th scope="col">Wins and struggles</th>
                <th scope="col">Reviews</th>
                <th scope="col">Retention</th>
              </tr>
            </thead>
            <tbody>
              {model.weeks.map((w) => (
                <tr key={w.week}>
                  <td>{formatDate(`${w.week}T12:00:00`, { day: "numeric", month: "short" })}</td>
                  <td>
                    <span className="week-bar win" style={{ width: `${(w.wins / maxMarks) * 4}rem` }} aria-hidden="true" />{" "}
                    <span className="week-bar struggle" style={{ width: `${(w.struggles / maxMarks) * 4}rem` }} aria-hidden="true" />{" "}
                    {w.wins} won, {w.struggles} struggled
                  </td>
                  <td>{w.reviews}</td>
                  <td>{percent(w.retention)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="struggles-heading">
        <h2 id="struggles-heading">Struggles</h2>
        {struggles.length === 0 ? (
          <p className="muted">No struggles marked on {topic}.</p>
        ) : (
          <ul className="card-list">
            {struggles.map((s) => (
              <li key={s.id}>
                <strong>{s.topic}</strong>
                {s.note ? ` · ${s.note}` : ""}
                <div className="meta">
                  <Link href={`/sessions/${s.sessionId}`} prefetch={false}>
                    {day(s.at)}
                  </Link>{" "}
                  ·{" "}
                  {s.hasCard ? (
                    "has a card"
                  ) : (
                    <MakeCard origin={{ kind: "mark", id: s.id }} {...cardFromMark({ ...s, status: "struggling" })} />
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="panel" aria-labelledby="cards-heading">
        <h2 id="cards-heading">Cards</h2>
        {cards.length === 0 ? (
          <p className="muted">
            No cards on {topic} yet. Make one from a struggle, a parked thought or a transcript passage, or write one here.
          </p>
        ) : (
          <ul className="card-list" data-testid="topic-card-list">
            {cards.map((c) => (
              <li key={c.id}>
                <strong>{c.front}</strong>
                <div>{c.back}</div>
                <div className="meta">
                  {c.isDue ? "due now" : `next review ${day(c.due)}`} · {c.reps} review{c.reps === 1 ? "" : "s"}
                  {c.lapses ? `, ${c.lapses} forgotten` : ""} · {originWords(c)}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <ImportCards topic={topic} />
    </div>
  );
}

/** Next hands the segment over still encoded in some versions and decoded in others. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
