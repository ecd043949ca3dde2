"use client";
// The warm-up of a session whose topic has due cards: a short review beside the tutor, open at the
// start, closed with one tap. Nothing shows when nothing is due.
import { useEffect, useState } from "react";
import { dueCards } from "./due-cards";
import { ReviewDeck } from "./ReviewDeck";

/** A warm-up is short: the rest waits for the review page. */
const WARM_UP_CARDS = 5;

export function WarmUp({ topic }: { topic: string }) {
  const [due, setDue] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void dueCards(topic, 1).then((answer) => {
      if (!cancelled && answer.ok) setDue(answer.value.dueCount);
    });
    return () => {
      cancelled = true;
    };
  }, [topic]);
  if (due === 0) return null;
  return (
    <details className="panel warm-up" open data-testid="warm-up">
      <summary>
        Warm-up: {Math.min(due, WARM_UP_CARDS)} of {due} due card{due === 1 ? "" : "s"} on {topic}
      </summary>
      <ReviewDeck topic={topic} limit={WARM_UP_CARDS} compact />
    </details>
  );
}
