"use client";
// The study loop's parts of the start form: topic suggestions from recent sessions, the focus plan
// (matched to energy, or Pomodoro) with the plan spelled out, and what the last session left for
// this one.
import { useEffect, useState } from "react";
import type { NextSessionSuggestions } from "@/server/study/history";
import { focusPlanFor, type FocusPlanKind } from "@/common/study/focus-plan";
import { callApi } from "../components/api-client";

/** Recent topics and "for next session", fetched again on mount (the page's copy may be old). */
export function useSuggestions(initial: NextSessionSuggestions | null): NextSessionSuggestions | null {
  const [suggestions, setSuggestions] = useState(initial);
  useEffect(() => {
    let cancelled = false;
    void callApi<NextSessionSuggestions>("/api/session/suggestions", { cache: "no-store" }).then((answer) => {
      if (answer.ok && !cancelled) setSuggestions(answer.value);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return suggestions;
}

export function TopicSuggestions({ topics, onPick }: { topics: readonly string[]; onPick: (topic: string) => void }) {
  if (topics.length === 0) return null;
  return (
    <>
      <datalist id="recent-topics">
        {topics.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <div className="chips" aria-label="Recently studied" data-testid="recent-topics">
        <span className="muted">Recent:</span>
        {topics.slice(0, 5).map((t) => (
          <button key={t} type="button" className="chip" title={t} onClick={() => onPick(t)}>
            {t}
          </button>
        ))}
      </div>
    </>
  );
}

export function FocusPlanChoice({
  kind,
  energy,
  onChange,
}: {
  kind: FocusPlanKind;
  energy: number;
  onChange: (kind: FocusPlanKind) => void;
}) {
  const plan = focusPlanFor(kind, energy);
  const energyPlan = focusPlanFor("energy", energy);
  return (
    <fieldset className="choice">
      <legend>Focus plan</legend>
      <label>
        <input type="radio" name="focusPlan" value="energy" checked={kind === "energy"} onChange={() => onChange("energy")} /> Matched to my
        energy ({energyPlan.label.toLowerCase()})
      </label>
      <label>
        <input type="radio" name="focusPlan" value="pomodoro" checked={kind === "pomodoro"} onChange={() => onChange("pomodoro")} />{" "}
        Pomodoro
      </label>
      <p className="plan-description" data-testid="focus-plan" aria-live="polite">
        <strong>{plan.label}:</strong> {plan.description}
      </p>
    </fieldset>
  );
}

export function ForThisSession({ suggestions, onPick }: { suggestions: NextSessionSuggestions | null; onPick: (topic: string) => void }) {
  if (!suggestions) return null;
  const { from, forNextSession, carried } = suggestions;
  if (forNextSession.length === 0 && carried.length === 0) return null;
  return (
    <section className="notice panel for-next" aria-labelledby="for-next-heading" data-testid="for-next-session">
      <h3 id="for-next-heading">For this session{from ? ` (left from “${from.topic}”)` : ""}</h3>
      <ul>
        {forNextSession.map((item) => {
          const revisit = /^Revisit (.+)$/.exec(item)?.[1];
          return (
            <li key={`n-${item}`}>
              {revisit ? (
                <button type="button" className="link-button" onClick={() => onPick(revisit)} title="Use it as the topic">
                  {item}
                </button>
              ) : (
                item
              )}
            </li>
          );
        })}
        {carried.map((item) => (
          <li key={`c-${item.id}`}>
            {item.text} <span className="muted">(carried over: it joins this session’s parking lot)</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
