"use client";
// The warm-up of a session whose topic has due cards: a short review beside the tutor, open at the
// start, closed with one tap. It follows the live view's due count (study:live, pushed when a card is
// written or reviewed), so a card the tutor writes shows up here at once. Nothing shows while nothing
// has been due; once shown it stays, so a finished review keeps its summary.
import { useState } from "react";
import { ReviewDeck } from "./ReviewDeck";

/** A warm-up is short: the rest waits for the review page. */
const WARM_UP_CARDS = 5;

export function WarmUp({ topic, due }: { topic: string; due: number }) {
  const [shown, setShown] = useState(due > 0);
  // Derived from the pushed count during render (React's pattern for state that follows a prop).
  if (due > 0 && !shown) setShown(true);
  if (!shown) return null;
  return (
    <details className="panel warm-up" open data-testid="warm-up">
      <summary>
        {due > 0
          ? `Warm-up: ${Math.min(due, WARM_UP_CARDS)} of ${due} due card${due === 1 ? "" : "s"} on ${topic}`
          : `Warm-up on ${topic}: nothing more is due`}
      </summary>
      <ReviewDeck topic={topic} limit={WARM_UP_CARDS} compact dueNow={due} />
    </details>
  );
}
