"use client";
// The study page: adopt the live session if there is one, explain an ended one, offer a new start.
import { useCallback, useState } from "react";
import type { AgentListing } from "@/server/agents/agent-registry";
import type { SessionStateView, SessionView } from "@/server/sessions/session-view";
import type { NextSessionSuggestions } from "@/server/study/history";
import type { ScreenPreview } from "@/server/transports/pty/screen-preview";
import { StartForm } from "./StartForm";
import { TerminalConsole } from "./TerminalConsole";
import { AcpChat } from "./AcpChat";
import { TmuxSessionView } from "./TmuxSessionView";
import { LiveStudy } from "./LiveStudy";
import { SessionSummary } from "../components/SessionSummary";
import { studySocket } from "../components/socket";

// Open the page's socket as soon as this module loads, while React is still hydrating: a live
// session's console attaches the moment it mounts instead of waiting for a handshake first.
if (typeof window !== "undefined") studySocket();

const KNOWN_TRANSPORTS = new Set(["pty", "acp", "tmux"]);

export function StudyRoom({
  initialState,
  agents,
  suggestions = null,
  preview = null,
}: {
  initialState: SessionStateView;
  agents: AgentListing[];
  suggestions?: NextSessionSuggestions | null;
  /** The live terminal's screen when the page was rendered (for initialState's session). */
  preview?: ScreenPreview | null;
}) {
  const [state, setState] = useState(initialState);
  const [justEnded, setJustEnded] = useState<SessionView | null>(null);
  const [failedStart, setFailedStart] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const res = await fetch("/api/session/state", { cache: "no-store" });
    if (res.ok) setState((await res.json()) as SessionStateView);
  }, []);

  const onEnded = useCallback(
    (view: SessionView) => {
      setJustEnded(view);
      void refresh();
    },
    [refresh],
  );

  const session = state.session;
  if (session && state.attach) {
    return (
      <LiveStudy key={session.id} session={session}>
        {state.attach.transport === "acp" ? (
          <AcpChat key={session.id} session={session} onEnded={onEnded} />
        ) : state.attach.transport === "tmux" ? (
          <TmuxSessionView key={session.id} session={session} onEnded={onEnded} />
        ) : (
          <TerminalConsole
            key={session.id}
            session={session}
            preview={session.id === initialState.session?.id ? preview : null}
            onEnded={onEnded}
          />
        )}
      </LiveStudy>
    );
  }
  if (session) {
    return <NotAttachable state={state} onChanged={refresh} />;
  }
  const shown = justEnded ?? state.lastEnded;
  const ended = shown && shown.id !== failedStart ? shown : null; // the start form explains its own failure
  return (
    <>
      {ended ? (
        <section className={`panel notice${ended.endReason === "ended-by-learner" ? "" : " warn"}`} data-testid="ended-explanation">
          <h2>Session ended: {ended.topic}</h2>
          <p>{ended.explanation}</p>
          <SessionSummary session={ended} />
          <p>
            <a href={`/sessions/${ended.id}`}>See the whole session: its timeline and transcript</a>
          </p>
        </section>
      ) : null}
      <StartForm agents={agents} suggestions={suggestions} onFailed={setFailedStart} onStarted={(next) => { setJustEnded(null); setState(next); }} />
    </>
  );
}

function NotAttachable({ state, onChanged }: { state: SessionStateView; onChanged: () => Promise<void> }) {
  const session = state.session!;
  const [error, setError] = useState<string | null>(null);
  // Only a transport this page cannot render at all is named as such; a known one without a
  // connection says so plainly.
  const message = !KNOWN_TRANSPORTS.has(session.transport)
    ? `This session uses the "${session.transport}" transport, which this page cannot show.`
    : (state.verdict?.notice ?? "The server did not return a connection for this session. Reload the page; if it stays like this, end the session and start a new one.");
  const end = async () => {
    const res = await fetch("/api/session/end", { method: "POST" });
    if (!res.ok) setError(((await res.json()) as { error: string }).error);
    await onChanged();
  };
  return (
    <section className="panel notice warn" data-testid="not-attachable">
      <h2>{session.topic}</h2>
      <p>{message}</p>
      {error ? <p className="error">{error}</p> : null}
      <div className="row">
        <button onClick={() => void onChanged()}>Check again</button>
        <button className="danger" onClick={() => void end()}>
          End this session
        </button>
      </div>
    </section>
  );
}
