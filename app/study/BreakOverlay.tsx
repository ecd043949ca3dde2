"use client";
// A due break, over the top of the tutor on every open device, until it is answered on any of them:
// the tab's title changes and the phone vibrates too (break-alerts.ts). "Take the break" pauses.
import { useEffect, useRef } from "react";
import type { TimerState } from "@/common/study/timer";
import { nudgeMessage, readTimer } from "@/common/study/timer";
import { useServerNow } from "../components/server-clock";
import { ErrorAlert } from "../components/ErrorAlert";
import { useTimerActions } from "./timer-actions";
import { alertBreak, breakTitle } from "./break-alerts";

export function BreakOverlay({ timer }: { timer: TimerState }) {
  const now = useServerNow();
  const { busy, error, act } = useTimerActions();
  const nudge = now === null ? null : readTimer(timer, now).active;
  const alerted = useRef(0);
  const n = nudge?.n ?? 0;
  const long = nudge?.long ?? false;
  const message = nudge ? nudgeMessage(nudge) : "";

  useEffect(() => {
    if (!n) return;
    document.title = breakTitle(document.title, long);
    if (alerted.current !== n) {
      alerted.current = n;
      alertBreak(n, message);
    }
    return () => {
      document.title = document.title.replace(/^(Longer break|Break) time · /, "");
    };
  }, [n, long, message]);

  if (!nudge) return null;
  return (
    <div className="break-overlay" data-testid="break-overlay">
      <div className="nudge" role="status" data-testid="break-nudge">
        <h2>{nudge.long ? "Time for a longer break" : "Time for a break"}</h2>
        <p>{message}</p>
        <div className="row">
          <button className="primary" disabled={busy} onClick={() => void act("break", nudge.n)}>
            Take the break
          </button>
          <button disabled={busy} onClick={() => void act("continue", nudge.n)}>
            Keep going
          </button>
        </div>
        <ErrorAlert error={error} />
      </div>
    </div>
  );
}
