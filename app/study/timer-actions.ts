"use client";
// Pause, resume and answering a break nudge: stored on the session by the server, so every open
// device shows the same. Shared by the session bar's timer and the break overlay.
import { useState } from "react";
import { callApi } from "../components/api-client";

export type TimerAction = "pause" | "resume" | "break" | "continue";

export function useTimerActions() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (action: TimerAction, nudge?: number) => {
    setBusy(true);
    setError(null);
    const answer = await callApi("/api/session/timer", { body: { action, ...(nudge ? { nudge } : {}) } });
    setBusy(false);
    if (!answer.ok) setError(answer.error);
  };
  return { busy, error, act };
}
