"use client";
// The card for a session that has ended: why, the tutor's last lines, and the ways back to it.
import { Fragment, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import { SessionSummary } from "../components/SessionSummary";
import { StruggleCards } from "../review/StruggleCards";
import { isDrawnLine } from "./drawn-lines";
import { callApi } from "../components/api-client";

/** Why the last session ended, what the tutor said last, and the ways back to it. */
export function EndedSession({ ended, onStarted }: { ended: SessionView; onStarted: (result: unknown) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const failedStart =
    ended.endReason === "startup-failed" || (ended.endReason === "agent-exited" && ended.lastLines.length > 0 && ended.exitCode !== 0);
  const act = async (url: string, body: unknown) => {
    setBusy(true);
    setError(null);
    const answer = await callApi(url, { method: "POST", body });
    setBusy(false);
    if (answer.ok) await onStarted(answer.value);
    else setError(answer.error);
  };
  const tryAgain = () =>
    act("/api/session/start", {
      topic: ended.topic,
      energy: ended.energy,
      agent: ended.agent,
      transport: ended.transport === "acp" ? "acp" : "pty",
      focusPlan: ended.focusPlan === "pomodoro" ? "pomodoro" : "energy",
    });
  return (
    <section className={`panel notice${ended.endReason === "ended-by-learner" ? "" : " warn"}`} data-testid="ended-explanation">
      <h2>Session ended: {ended.topic}</h2>
      <p>{ended.explanation}</p>
      {ended.lastLines.length > 0 ? (
        <>
          <p className="muted">The tutor&apos;s last lines{ended.exitCode !== null ? ` (exit code ${ended.exitCode})` : ""}:</p>
          <pre className="last-lines" data-testid="last-lines">
            {ended.lastLines.map((line, i) => (
              <Fragment key={i}>
                {i > 0 ? "\n" : null}
                {isDrawnLine(line) ? <span className="drawn">{line}</span> : line}
              </Fragment>
            ))}
          </pre>
        </>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row">
        {failedStart ? (
          <button className="primary" disabled={busy} onClick={() => void tryAgain()} data-testid="try-again">
            Try again
          </button>
        ) : null}
        {ended.canContinue ? (
          <button
            className={failedStart ? "" : "primary"}
            disabled={busy}
            onClick={() => void act("/api/session/continue", { sessionId: ended.id })}
            data-testid="continue-session"
          >
            Continue this session
          </button>
        ) : null}
      </div>
      {ended.canContinue ? (
        <p className="muted">Continue starts the tutor again in the same folder and asks it to take up its last conversation.</p>
      ) : null}
      {ended.continuedFromId ? (
        <p className="muted">
          It continued <a href={`/sessions/${ended.continuedFromId}`}>an earlier session</a>.
        </p>
      ) : null}
      <SessionSummary session={ended} />
      <StruggleCards sessionId={ended.id} />
      <p>
        <a href={`/sessions/${ended.id}`}>See the whole session: its timeline and transcript</a>
      </p>
    </section>
  );
}
