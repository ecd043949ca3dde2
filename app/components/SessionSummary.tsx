import type { SessionView } from "@/server/sessions/session-view";

/** The end-of-session summary as stored on the row: time, wins, struggles, parked, for next time. */
export function SessionSummary({ session }: { session: SessionView }) {
  const s = session.summary;
  if (!s) return null;
  return (
    <div className="summary" data-testid="session-summary">
      <dl>
        <dt>Duration</dt>
        <dd data-testid="summary-duration">
          {s.durationMinutes} min ({s.focusMinutes} min focus)
        </dd>
        <dt>Wins</dt>
        <dd data-testid="summary-wins">{s.wins.length ? s.wins.join(", ") : "none recorded"}</dd>
        <dt>Struggles</dt>
        <dd data-testid="summary-struggles">{s.struggles.length ? s.struggles.join(", ") : "none recorded"}</dd>
        {s.insights.length ? (
          <>
            <dt>Insights</dt>
            <dd>{s.insights.join(", ")}</dd>
          </>
        ) : null}
        <dt>Parked</dt>
        <dd data-testid="summary-parked">
          {s.parked.length ? (
            <ul className="plain">
              {s.parked.map((p, i) => (
                <li key={`${i}-${p}`}>{p}</li>
              ))}
            </ul>
          ) : (
            "nothing parked"
          )}
        </dd>
        {s.forNextSession.length ? (
          <>
            <dt>For next time</dt>
            <dd data-testid="summary-next">
              <ul className="plain">
                {s.forNextSession.map((p, i) => (
                  <li key={`${i}-${p}`}>{p}</li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
