"use client";
// On the start form: "Review 5 due cards before you start", for the topic typed (or all topics).
// A link, so skipping it is simply starting.
import Link from "next/link";
import { useEffect, useState } from "react";
import { dueCards } from "./due-cards";

/** A pre-session review is short. */
const BEFORE_START_CARDS = 5;
/** Wait for the learner to stop typing before asking (ms). */
const TYPING_PAUSE_MS = 300;

export function DueBeforeStart({ topic }: { topic: string }) {
  const [due, setDue] = useState<{ topic: string; count: number } | null>(null);
  const wanted = topic.trim();
  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      void dueCards(wanted || undefined, 1).then((answer) => {
        if (!cancelled && answer.ok) setDue({ topic: wanted, count: answer.value.dueCount });
      });
    }, TYPING_PAUSE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [wanted]);
  if (!due || due.count === 0) return null;
  const n = Math.min(due.count, BEFORE_START_CARDS);
  const query = new URLSearchParams({ ...(due.topic ? { topic: due.topic } : {}), limit: String(n), then: "study" });
  return (
    <p className="due-before-start" data-testid="due-before-start">
      <Link className="due-link" href={`/review?${query}`} prefetch={false}>
        Review {n} due card{n === 1 ? "" : "s"} before you start
      </Link>{" "}
      <span className="muted">
        ({due.count} due{due.topic ? ` on ${due.topic}` : ""}; or just start)
      </span>
    </p>
  );
}
