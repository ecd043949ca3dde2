"use client";
// A CLI session running in tmux, seen from the browser: live, and one tap from a terminal view of it
// (a pty on the server running `tmux attach`). When tmux goes away the page explains the end.
import { useEffect, useState } from "react";
import type { SessionStateView, SessionView } from "@/server/sessions/session-view";
import { studySocket } from "../components/socket";
import { TerminalConsole } from "./TerminalConsole";
import { EndSessionButton } from "./EndSessionButton";
import { rememberOpenedHere, wasOpenedHere } from "./tmux-opened";

export function TmuxSessionView({ session, onEnded }: { session: SessionView; onEnded: (view: SessionView) => void }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Opened in this tab before a reload: open again. Read after hydration (no storage on the server).
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (wasOpenedHere(session.id)) setOpen(true);
  }, [session.id]);

  // Watch the session's state: killing tmux (or ending it from a terminal) must show up here too.
  useEffect(() => {
    const socket = studySocket();
    const check = (state: SessionStateView) => {
      if (state.session?.id !== session.id && state.lastEnded?.id === session.id) onEnded(state.lastEnded);
    };
    const watch = () => socket.emit("session:watch", (r) => (r.ok ? check(r.value) : undefined));
    socket.on("session:state", check);
    socket.on("connect", watch);
    if (socket.connected) watch();
    return () => {
      socket.off("session:state", check);
      socket.off("connect", watch);
    };
  }, [session.id, onEnded]);

  if (open) return <TerminalConsole session={session} onEnded={onEnded} />;
  return (
    <section className="panel notice" data-testid="tmux-session">
      <div className="row">
        <span className="badge live">live in tmux</span>
        <strong>{session.topic}</strong>
        <span className="muted">with {session.agent}</span>
      </div>
      <p>
        This session was started from a terminal and runs in tmux ({session.muxSession}). Open it here, or reattach in a terminal with{" "}
        <code>studyloop study --resume</code>.
      </p>
      {error ? <p className="error">{error}</p> : null}
      <div className="row">
        <button
          className="primary"
          onClick={() => {
            rememberOpenedHere(session.id);
            setOpen(true);
          }}
        >
          Open in browser
        </button>
        <EndSessionButton onEnded={onEnded} onError={setError} />
      </div>
    </section>
  );
}
