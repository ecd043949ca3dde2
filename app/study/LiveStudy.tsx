"use client";
// The study loop around the live tutor: the focus timer above it; parking, topic marks, the live
// feed and last session's suggestions beside it (below it on a phone). Whatever transport shows the
// tutor is passed in as children.
import { useEffect, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import type { NextSessionSuggestions } from "@/server/study/history";
import { focusPlanFor, type FocusPlanKind } from "@/server/study/focus-plan";
import { TimerBar } from "./TimerBar";
import { ParkThought } from "./ParkThought";
import { TopicMarker } from "./TopicMarker";
import { MarkFeed, ParkedFeed } from "./StudyFeed";
import { WarmUp } from "../review/WarmUp";
import { useStudyLive } from "../components/study-live";
import { useServerReachable, clockOf } from "../components/server-reachable";
import { ServerAway } from "../components/ServerAway";

export function LiveStudy({ session, children }: { session: SessionView; children: React.ReactNode }) {
  const { view } = useStudyLive(session.id);
  const reach = useServerReachable();
  const keptUntil = view ? view.keptUntil : session.keptUntil;
  const [lastTime, setLastTime] = useState<NextSessionSuggestions | null>(null);
  const plan = focusPlanFor(session.focusPlan === "pomodoro" ? "pomodoro" : ("energy" as FocusPlanKind), session.energy);

  useEffect(() => {
    let cancelled = false;
    void fetch("/api/session/suggestions", { cache: "no-store" })
      .then((res) => (res.ok ? (res.json() as Promise<NextSessionSuggestions>) : null))
      .then((s) => {
        if (!cancelled) setLastTime(s);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [session.id]);

  const fromLastTime = lastTime?.from && lastTime.from.id !== session.id ? lastTime.forNextSession : [];
  return (
    <div className="live-study" data-away={reach.away ? "true" : "false"}>
      {reach.away ? <ServerAway since={reach.since} live /> : null}
      {/* While the server is away the timer stops where it was last known to be right. */}
      <TimerBar timer={view?.timer ?? session.timer} planLabel={plan.label} stoppedAt={reach.away ? reach.since : null} />
      {keptUntil && !reach.away ? (
        <p className="muted kept-until" data-testid="kept-until">
          On a break: this session is kept until {clockOf(Date.parse(keptUntil))}, even with no page open.
        </p>
      ) : null}
      <div className="study-grid">
        {/* The tutor cannot be reached either: dimmed, and no typing that would go nowhere. */}
        <div className={`study-main${reach.away ? " away" : ""}`} inert={reach.away} data-testid="study-main">
          {children}
        </div>
        <aside className="study-side stack" aria-label="Study loop">
          <ParkThought />
          <WarmUp topic={session.topic} />
          {fromLastTime.length > 0 ? (
            <details className="panel last-time" open data-testid="from-last-time">
              <summary>From last time ({lastTime?.from?.topic})</summary>
              <ul>
                {fromLastTime.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </details>
          ) : null}
          <div className="panel">
            <TopicMarker defaultTopic={session.topic} />
          </div>
          <div className="panel">
            <MarkFeed marks={view?.marks ?? []} />
          </div>
          <div className="panel">
            <ParkedFeed parked={view?.parked ?? []} />
          </div>
        </aside>
      </div>
    </div>
  );
}
