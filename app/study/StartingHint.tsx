"use client";
// Under a live terminal that is still blank a few seconds after the session started: the agent has
// not drawn yet (starting-hint.ts says when and what).
import { useEffect, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import { startingHint } from "./starting-hint";

export function StartingHint({ session, drawn, live }: { session: SessionView; drawn: boolean; live: boolean }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (drawn || !live) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [drawn, live]);
  const hint = live && now !== null ? startingHint(session.agent, session.startedAt, now, drawn) : null;
  return hint ? (
    <p className="terminal-cue" data-testid="starting-hint" role="status">
      {hint}
    </p>
  ) : null;
}
