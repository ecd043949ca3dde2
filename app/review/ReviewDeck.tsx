"use client";
// One card at a time: the question, then (Show answer, or Space) the answer and four answers to how
// well it was recalled, Again / Hard / Good / Easy (keys 1–4), each with its next wait from FSRS.
// Phone first: big buttons in one row under the thumb.
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import type { CardView } from "@/server/cards/card-view";
import { RATINGS, type RatingName } from "@/common/cards/ratings";
import { ErrorAlert } from "../components/ErrorAlert";
import { callApi } from "../components/api-client";
import { dueCards } from "./due-cards";
import "./review.css";

const WORDS: Record<RatingName, string> = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" };

export interface ReviewDeckProps {
  readonly topic?: string;
  /** How many due cards this review takes at most. */
  readonly limit?: number;
  /** Where "Continue" leads when the review is done (the start form, the study page). */
  readonly then?: { href: string; label: string };
  /** Inside another page (the study page's warm-up): smaller headings, no page title. */
  readonly compact?: boolean;
  /**
   * How many cards are due now, as the server pushes it (the warm-up): when it changes, cards that
   * became due since are added at the end of the deck, whatever the learner is looking at.
   */
  readonly dueNow?: number;
}

export function ReviewDeck({ topic, limit = 50, then, compact = false, dueNow }: ReviewDeckProps) {
  const [cards, setCards] = useState<CardView[] | null>(null);
  const [index, setIndex] = useState(0);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reviewed, setReviewed] = useState<{ front: string; rating: RatingName; due: string }[]>([]);
  /** When the current card was shown (ms): how long the learner took is stored with the review. */
  const shownAt = useRef(0);
  const deck = useRef<HTMLElement>(null);

  const apply = useCallback((answer: Awaited<ReturnType<typeof dueCards>>) => {
    if (!answer.ok) return setError(answer.error);
    setCards(answer.value.cards);
    setIndex(0);
    setShown(false);
    shownAt.current = Date.now();
  }, []);
  const load = useCallback(() => dueCards(topic, limit).then(apply), [topic, limit, apply]);

  useEffect(() => {
    let cancelled = false;
    void dueCards(topic, limit).then((answer) => {
      if (!cancelled) apply(answer);
    });
    return () => {
      cancelled = true;
    };
  }, [topic, limit, apply]);

  // A card that became due (the tutor wrote one) joins the deck; those already in it stay where they are.
  const dueSeen = useRef(dueNow);
  useEffect(() => {
    if (dueNow === undefined || dueNow === dueSeen.current) return;
    dueSeen.current = dueNow;
    let cancelled = false;
    void dueCards(topic, limit).then((answer) => {
      if (cancelled || !answer.ok) return;
      setCards((known) => {
        if (known === null) return answer.value.cards;
        const ids = new Set(known.map((c) => c.id));
        const added = answer.value.cards.filter((c) => !ids.has(c.id));
        return added.length ? [...known, ...added] : known;
      });
    });
    return () => {
      cancelled = true;
    };
  }, [dueNow, topic, limit]);

  const card = cards?.[index];

  const rate = useCallback(
    async (rating: RatingName) => {
      if (!card || busy) return;
      setBusy(true);
      setError(null);
      const answer = await callApi<{ card: CardView }>(`/api/cards/${card.id}/reviews`, {
        body: { rating, reps: card.reps, durationMs: Math.min(Date.now() - shownAt.current, 24 * 3_600_000) },
      });
      setBusy(false);
      if (!answer.ok) {
        setError(answer.error);
        // Reviewed elsewhere meanwhile: take the deck as it now stands.
        if (answer.status === 409) void load();
        return;
      }
      setReviewed((r) => [...r, { front: card.front, rating, due: answer.value.card.due }]);
      setIndex((i) => i + 1);
      setShown(false);
      shownAt.current = Date.now();
    },
    [card, busy, load],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.closest(".xterm, dialog")))
        return;
      // Space on another page's button or link is that control's, not a reveal.
      if (target?.closest("button, a, summary") && !deck.current?.contains(target)) return;
      if (!card) return;
      if (!shown && (event.key === " " || event.key === "Enter")) {
        event.preventDefault();
        setShown(true);
      } else if (shown && /^[1-4]$/.test(event.key)) {
        event.preventDefault();
        void rate(RATINGS[Number(event.key) - 1]!);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [card, shown, rate]);

  const Heading = compact ? "h3" : "h2";
  if (cards === null) return error ? <ErrorAlert error={error} /> : <p className="muted">Loading the due cards…</p>;
  if (!card) {
    return (
      <section className="review-done panel" data-testid="review-done">
        <Heading>{reviewed.length ? `Done: ${reviewed.length} card${reviewed.length === 1 ? "" : "s"} reviewed` : "Nothing due"}</Heading>
        <p className="muted">
          {reviewed.length
            ? "Each comes back when FSRS expects you to be about to forget it."
            : `No cards${topic ? ` on “${topic}”` : ""} are due now. Make cards from your struggles, or come back later.`}
        </p>
        {reviewed.length ? (
          <ul className="plain review-log" data-testid="review-log">
            {reviewed.map((r, i) => (
              <li key={i}>
                <span className={`pill rating-${r.rating}`}>{WORDS[r.rating]}</span> {r.front} · next{" "}
                {new Date(r.due).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}
              </li>
            ))}
          </ul>
        ) : null}
        {then ? (
          <Link className="button primary" href={then.href} prefetch={false}>
            {then.label}
          </Link>
        ) : null}
      </section>
    );
  }
  return (
    <section
      ref={deck}
      className={`review ${compact ? "compact" : ""}`}
      aria-label="Review"
      data-testid="review-card"
      data-card-id={card.id}
    >
      <p className="review-progress muted">
        Card {index + 1} of {cards.length}
        {topic ? "" : ` · ${card.topic}`}
      </p>
      <div className="review-face panel">
        <p className="review-front" data-testid="card-front">
          {card.front}
        </p>
        {shown ? (
          <>
            <hr />
            <p className="review-back" data-testid="card-back">
              {card.back}
            </p>
          </>
        ) : null}
      </div>
      <ErrorAlert error={error} />
      <div className="review-actions">
        {shown ? (
          <div className="rating-buttons" role="group" aria-label="How well did you recall it?">
            {RATINGS.map((r, i) => (
              <button key={r} type="button" className={`rating rating-${r}`} onClick={() => void rate(r)} disabled={busy} data-rating={r}>
                <span className="rating-word">{WORDS[r]}</span>
                <span className="rating-wait">{card.waits[r]}</span>
                <kbd className="shortcut">{i + 1}</kbd>
              </button>
            ))}
          </div>
        ) : (
          <button type="button" className="primary reveal" onClick={() => setShown(true)} data-testid="reveal">
            Show answer <kbd className="shortcut">Space</kbd>
          </button>
        )}
      </div>
      {then ? (
        <p className="review-skip">
          <Link href={then.href} prefetch={false}>
            Skip the rest: {then.label.toLowerCase()}
          </Link>
        </p>
      ) : null}
    </section>
  );
}
