"use client";
// The focus timer in the session bar: focus time so far and the next break, read from the server's
// stored timer against the server's clock; pause and resume are stored on the session, so every
// device shows the same. A due break is shown over the tutor by BreakOverlay.
import type { TimerState } from "@/common/study/timer";
import { formatClock, readTimer } from "@/common/study/timer";
import { useServerNow } from "../components/server-clock";
import { ErrorAlert } from "../components/ErrorAlert";
import { useTimerActions } from "./timer-actions";

export function TimerBar({ timer, planLabel, stoppedAt = null }: { timer: TimerState; planLabel: string; stoppedAt?: number | null }) {
  const serverNow = useServerNow();
  // Stopped (the server is away): the reading as of then, not a clock that runs on without it.
  const now = stoppedAt ?? serverNow;
  const { busy, error, act } = useTimerActions();
  const reading = now === null ? null : readTimer(timer, now);
  const next =
    reading === null
      ? planLabel
      : reading.paused
        ? `On a break for ${formatClock(reading.pausedForMs)}. The timer waits for you.`
        : reading.next
          ? `${reading.next.long ? "Longer break" : "Break"} in ${formatClock(reading.next.inMs)} · ${planLabel}`
          : planLabel;
  return (
    <div className="timer-bar" data-testid="timer" data-paused={reading?.paused ? "true" : "false"} role="timer" aria-label="Focus timer">
      <div className="timer-main">
        <span className="timer-label">{reading?.paused ? "Paused" : "Focus"}</span>
        <span className="timer-clock" data-testid="focus-time">
          {reading ? formatClock(reading.focusMs) : "–:––"}
        </span>
      </div>
      <div className="timer-next muted" data-testid="next-break" title={next}>
        {next}
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
      <ErrorAlert error={error} />
    </div>
  );
}
