// The dashboard's review panel: how many cards are due, per topic, and the way to review them.
import Link from "next/link";
import "./review.css";

export function DueCards({ byTopic }: { byTopic: readonly { topic: string; due: number }[] }) {
  const total = byTopic.reduce((sum, t) => sum + t.due, 0);
  if (total === 0) return null;
  return (
    <section className="panel notice row" aria-labelledby="due-heading" data-testid="due-cards">
      <div className="stack" style={{ flex: 1, gap: "0.25rem" }}>
        <h2 id="due-heading" style={{ margin: 0 }}>
          {total} card{total === 1 ? "" : "s"} due for review
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          {byTopic.slice(0, 6).map((t, i) => (
            <span key={t.topic}>
              {i ? " · " : ""}
              <Link href={`/topics/${encodeURIComponent(t.topic)}`} prefetch={false}>
                {t.topic}
              </Link>{" "}
              {t.due}
            </span>
          ))}
          {byTopic.length > 6 ? ` · ${byTopic.length - 6} more topics` : ""}
        </p>
      </div>
      <Link className="button primary" href="/review" prefetch={false}>
        Review now
      </Link>
    </section>
  );
}
