"use client";
// Pause, resume and answering a break nudge: stored on the session by the server, so every open
// device shows the same. Shared by the session bar's timer and the break overlay.
import { useState } from "react";
import { send } from "../components/study-live";

export type TimerAction = "pause" | "resume" | "break" | "continue";

export function useTimerActions() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (action: TimerAction, nudge?: number) => {
    setBusy(true);
    setError(null);
    const problem = await send("/api/session/timer", { action, ...(nudge ? { nudge } : {}) });
    setBusy(false);
    if (problem) setError(problem);
  };
  return { busy, error, act };
}
