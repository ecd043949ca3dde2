"use client";
// The focus timer on the study page: focus time so far and the next break, read from the server's
// stored timer against the server's clock; pause and resume are stored on the session, so every
// device shows the same. A break nudge appears once, gently, until it is answered on any device.
import { useState } from "react";
import type { TimerState } from "@/server/study/timer";
import { formatClock, nudgeMessage, readTimer } from "@/server/study/timer";
import { useServerNow } from "../components/server-clock";
import { send } from "../components/study-live";
import { ErrorAlert } from "../components/ErrorAlert";

export function TimerBar({ timer, planLabel, stoppedAt = null }: { timer: TimerState; planLabel: string; stoppedAt?: number | null }) {
  const serverNow = useServerNow();
  // Stopped (the server is away): the reading as of then, not a clock that runs on without it.
  const now = stoppedAt ?? serverNow;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reading = now === null ? null : readTimer(timer, now);

  const act = async (action: "pause" | "resume" | "break" | "continue", nudge?: number) => {
    setBusy(true);
    setError(null);
    const problem = await send("/api/session/timer", { action, ...(nudge ? { nudge } : {}) });
    setBusy(false);
    if (problem) setError(problem);
  };

  const nudge = reading?.active ?? null;
  return (
    <div className="timer-wrap">
      <div className="timer-bar" data-testid="timer" data-paused={reading?.paused ? "true" : "false"} role="timer" aria-label="Focus timer">
        <div className="timer-main">
          <span className="timer-label">{reading?.paused ? "Paused" : "Focus"}</span>
          <span className="timer-clock" data-testid="focus-time">
            {reading ? formatClock(reading.focusMs) : "–:––"}
          </span>
        </div>
        <div className="timer-next muted" data-testid="next-break">
          {reading === null
            ? planLabel
            : reading.paused
              ? `On a break for ${formatClock(reading.pausedForMs)}. The timer waits for you.`
              : reading.next
                ? `${reading.next.long ? "Longer break" : "Break"} in ${formatClock(reading.next.inMs)} · ${planLabel}`
                : planLabel}
        </div>
        {reading?.paused ? (
          <button className="primary" disabled={busy || stoppedAt !== null} onClick={() => void act("resume")}>
            Resume
          </button>
        ) : (
          <button disabled={busy || reading === null || stoppedAt !== null} onClick={() => void act("pause")}>
            Pause
          </button>
        )}
      </div>
      {nudge ? (
        <div className="nudge" role="status" data-testid="break-nudge">
          <p>{nudgeMessage(nudge)}</p>
          <div className="row">
            <button className="primary" disabled={busy} onClick={() => void act("break", nudge.n)}>
              Take the break
            </button>
            <button disabled={busy} onClick={() => void act("continue", nudge.n)}>
              Keep going
            </button>
          </div>
        </div>
      ) : null}
      <ErrorAlert error={error} />
    </div>
  );
}
