import type { SessionView } from "@/server/sessions/session-view";

export function SessionSummary({ session }: { session: SessionView }) {
  const s = session.summary;
  if (!s) return null;
  return (
    <div className="summary" data-testid="session-summary">
      <dl>
        <dt>Duration</dt>
        <dd>{s.durationMinutes} min ({s.focusMinutes} min focus)</dd>
        <dt>Wins</dt>
        <dd>{s.wins.length ? s.wins.join(", ") : "none recorded"}</dd>
        <dt>Struggles</dt>
        <dd>{s.struggles.length ? s.struggles.join(", ") : "none recorded"}</dd>
        <dt>Parked</dt>
        <dd>{s.parked.length ? s.parked.join(" · ") : "nothing parked"}</dd>
        {s.forNextSession.length ? (
          <>
            <dt>For next time</dt>
            <dd>{s.forNextSession.join(" · ")}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
