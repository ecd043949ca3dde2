"use client";
// At the end of a session: one card offered per struggle that has none yet, prefilled from the mark.
import { useEffect, useState } from "react";
import type { CardlessStruggle } from "@/server/cards/card-store";
import { callApi } from "../components/api-client";
import { MakeCard } from "./MakeCard";
import { cardFromMark } from "./prefill";

export function StruggleCards({ sessionId }: { sessionId: string }) {
  const [struggles, setStruggles] = useState<CardlessStruggle[]>([]);
  useEffect(() => {
    let cancelled = false;
    const url = `/api/cards/struggles?session=${encodeURIComponent(sessionId)}`;
    void callApi<{ struggles: CardlessStruggle[] }>(url, { cache: "no-store" }).then((answer) => {
      if (!cancelled && answer.ok) setStruggles(answer.value.struggles);
    });
    return () => {
      cancelled = true;
    };
  }, [sessionId]);
  if (struggles.length === 0) return null;
  return (
    <div className="struggle-cards" data-testid="struggle-cards">
      <p>
        <strong>Keep what you struggled with:</strong> make a review card for each, so it comes back before you forget it.
      </p>
      <ul className="plain card-list">
        {struggles.map((s) => (
          <li key={s.markId}>
            <span className="pill struggling">Struggling</span> {s.topic}
            {s.note ? <span className="muted"> · {s.note}</span> : null} ·{" "}
            <MakeCard origin={{ kind: "mark", id: s.markId }} {...cardFromMark(s)} label="Make a card" />
          </li>
        ))}
      </ul>
    </div>
  );
}
