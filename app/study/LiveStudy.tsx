"use client";
// The study room around the live tutor: a compact session bar (timer, pause, park, the panel, the
// focus key) over the tutor, which fills the rest of the window; marks, parked thoughts and the feed
// in a side panel on wide screens and a bottom sheet on a phone. A due break covers the tutor.
// Whatever transport shows the tutor is passed in as children.
import { useRef, useState, useSyncExternalStore } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import { focusPlanFor, type FocusPlanKind } from "@/common/study/focus-plan";
import { TimerBar } from "./TimerBar";
import { BreakOverlay } from "./BreakOverlay";
import { ParkThought } from "./ParkThought";
import { TopicMarker } from "./TopicMarker";
import { MarkFeed, ParkedFeed } from "./StudyFeed";
import { StudySettings } from "./StudySettings";
import { WarmUp } from "../review/WarmUp";
import { useSuggestions } from "./StartChoices";
import { FOCUS_SHORTCUT, useFocusSwitch } from "./focus-switch";
import { useVisualViewportHeight } from "./visual-viewport";
import { useStudyLive } from "../components/study-live";
import { useServerReachable, clockOf } from "../components/server-reachable";
import { ServerAway } from "../components/ServerAway";

/** From this width the panel sits beside the tutor (globals.css uses the same width). */
const WIDE_QUERY = "(min-width: 960px)";
type PanelChoice = "auto" | "open" | "closed";

function useWide(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(WIDE_QUERY);
      media.addEventListener("change", notify);
      return () => media.removeEventListener("change", notify);
    },
    () => window.matchMedia(WIDE_QUERY).matches,
    () => true,
  );
}

export function LiveStudy({ session, children }: { session: SessionView; children: React.ReactNode }) {
  const { view } = useStudyLive(session.id);
  const reach = useServerReachable();
  const keptUntil = view ? view.keptUntil : session.keptUntil;
  // StudyRoom keys this by the session: read once per session.
  const lastTime = useSuggestions(null);
  const [panel, setPanel] = useState<PanelChoice>("auto");
  const wide = useWide();
  const bar = useRef<HTMLDivElement>(null);
  const plan = focusPlanFor(session.focusPlan === "pomodoro" ? "pomodoro" : ("energy" as FocusPlanKind), session.energy);
  const panelOpen = panel === "open" || (panel === "auto" && wide);
  useFocusSwitch(bar);
  useVisualViewportHeight();

  const timer = view?.timer ?? session.timer;
  const fromLastTime = lastTime?.from && lastTime.from.id !== session.id ? lastTime.forNextSession : [];
  return (
    <div className="live-study" data-panel={panel} data-panel-open={panelOpen ? "true" : "false"} data-away={reach.away ? "true" : "false"}>
      {reach.away ? <ServerAway since={reach.since} live /> : null}
      <div className="session-bar" ref={bar} role="group" aria-label="Session">
        {/* While the server is away the timer stops where it was last known to be right. */}
        <TimerBar timer={timer} planLabel={plan.label} stoppedAt={reach.away ? reach.since : null} />
        <ParkThought />
        <button
          type="button"
          className="panel-toggle"
          aria-expanded={panelOpen}
          aria-controls="study-panel"
          data-testid="panel-toggle"
          onClick={() => setPanel(panelOpen ? "closed" : "open")}
        >
          Marks &amp; notes
        </button>
        <span className="focus-hint muted" data-testid="focus-hint">
          <kbd className="shortcut">{FOCUS_SHORTCUT}</kbd> terminal ⇄ controls
        </span>
      </div>
      {keptUntil && !reach.away ? (
        <p className="muted kept-until" data-testid="kept-until">
          On a break: this session is kept until {clockOf(Date.parse(keptUntil))}, even with no page open.
        </p>
      ) : null}
      {/* The panel comes first in the page's order, though it shows on the right: the terminal keeps Tab,
          so whatever comes after it could only be reached by Alt+T and Shift+Tab. */}
      <div className="study-grid">
        <aside
          id="study-panel"
          className="study-side"
          aria-label="Study loop"
          hidden={!panelOpen}
          onKeyDown={(e) => {
            if (e.key === "Escape" && !wide) setPanel("closed");
          }}
        >
          <div className="sheet-head">
            <strong>Marks &amp; notes</strong>
            <button type="button" onClick={() => setPanel("closed")}>
              Close
            </button>
          </div>
          <WarmUp topic={session.topic} due={view?.dueCards ?? 0} />
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
          <StudySettings />
        </aside>
        {/* The tutor cannot be reached either: dimmed, and no typing that would go nowhere. */}
        <div className={`study-main${reach.away ? " away" : ""}`} inert={reach.away} data-testid="study-main">
          {children}
          {reach.away ? null : <BreakOverlay timer={timer} />}
        </div>
      </div>
    </div>
  );
}
