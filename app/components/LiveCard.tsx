"use client";
// The live session card: the same state GET /api/session/state returns, pushed on every change.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { SessionStateView } from "@/server/sessions/session-view";
import { studySocket } from "./socket";

export function LiveCard({ initial }: { initial: SessionStateView }) {
  const [state, setState] = useState(initial);
  useEffect(() => {
    const socket = studySocket();
    const watch = () =>
      socket.emit("session:watch", (result) => {
        if (result.ok) setState(result.value);
      });
    socket.on("session:state", setState);
    socket.on("connect", watch);
    if (socket.connected) watch();
    return () => {
      socket.off("session:state", setState);
      socket.off("connect", watch);
    };
  }, []);

  const s = state.session;
  if (!s) {
    return (
      <section className="panel" data-testid="live-card" data-state={state.state}>
        <p>No session is running.</p>
        {state.lastEnded ? <p className="muted">Last session: “{state.lastEnded.topic}”. {state.lastEnded.explanation}</p> : null}
        <Link className="button primary" href="/study">
          Start a study session
        </Link>
      </section>
    );
  }
  return (
    <section className="panel notice" data-testid="live-card" data-state={state.state}>
      <div className="row">
        <span className="badge live">{state.state === "starting" ? "starting" : "live"}</span>
        <strong>{s.topic}</strong>
        <span className="muted">
          with {s.agent} since {new Date(s.startedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}
        </span>
      </div>
      {state.verdict?.notice ? <p className="muted">{state.verdict.notice}</p> : null}
      <Link className="button primary" href="/study">
        {state.attach ? "Open the session" : "See the session"}
      </Link>
    </section>
  );
}
