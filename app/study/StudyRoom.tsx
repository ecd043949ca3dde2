"use client";
// The study page: adopt the live session if there is one, explain an ended one (with the tutor's
// last lines, "Try again" and "Continue this session"), offer a new start, and say so plainly when
// the server cannot be reached.
import { useCallback, useEffect, useRef, useState } from "react";
import dynamic from "next/dynamic";
import type { AgentListing } from "@/server/agents/agent-registry";
import type { SessionStateView, SessionView } from "@/server/sessions/session-view";
import type { NextSessionSuggestions } from "@/server/study/history";
import type { ScreenPreview } from "@/server/transports/pty/screen-preview";
import { StartForm } from "./StartForm";
import { TerminalConsole } from "./TerminalConsole";
import { TmuxSessionView } from "./TmuxSessionView";
import { LiveStudy } from "./LiveStudy";
import { EndedSession } from "./EndedSession";
import { ServerAway } from "../components/ServerAway";
import { callApi } from "../components/api-client";
import { studySocket } from "../components/socket";
import { useServerReachable } from "../components/server-reachable";

// Open the page's socket as soon as this module loads, while React is still hydrating: a live
// session's console attaches the moment it mounts instead of waiting for a handshake first.
if (typeof window !== "undefined") studySocket();

// Loaded only when shown (server-rendered with the page when it is): the chat brings Markdown (KaTeX,
// highlight.js, remark: ~600 KB of script), which a reloaded live terminal would otherwise compile and
// run before its console attaches (docs/performance.md, round 6). The start form stays in the page: it
// is what a page shows when its session ends with the server, and then no chunk could be loaded.
const AcpChat = dynamic(() => import("./AcpChat").then((m) => m.AcpChat));

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
  const reach = useServerReachable();
  const [failedStart, setFailedStart] = useState<string | null>(null);

  /** Reads the state again; true when it could (false: the server is away, the page stays as it is). */
  const refresh = useCallback(async (): Promise<boolean> => {
    const answer = await callApi<SessionStateView>("/api/session/state", { cache: "no-store" });
    if (answer.ok) setState(answer.value);
    return answer.ok;
  }, []);

  // The state as the server pushes it (a session ending, starting, or ended elsewhere). A live view
  // keeps its own attachment: only a change of session or of attachability replaces it.
  useEffect(() => {
    const socket = studySocket();
    const apply = (next: SessionStateView) =>
      setState((prev) => {
        if (prev.attach && next.attach && prev.session?.id === next.session?.id) return prev;
        // A session still starting keeps the start form on screen (the page that started it shows the
        // outcome there, a refusal included); it arrives here again once it is live or has ended.
        if (!prev.session && next.session?.status === "starting") return prev;
        return next;
      });
    const watch = () =>
      socket.emit("session:watch", (result) => {
        if (result.ok) apply(result.value);
      });
    socket.on("session:state", apply);
    socket.on("connect", watch);
    if (socket.connected) watch();
    return () => {
      socket.off("session:state", apply);
      socket.off("connect", watch);
    };
  }, []);

  // Back after being away: show what really happened meanwhile (the verdict), not what was.
  const wasAway = useRef(false);
  useEffect(() => {
    if (reach.away) wasAway.current = true;
    else if (reach.since === null && wasAway.current) {
      wasAway.current = false;
      void refresh();
    }
  }, [reach.away, reach.since, refresh]);

  const onEnded = useCallback(
    (view: SessionView) => {
      setJustEnded(view);
      void refresh();
    },
    [refresh],
  );

  const started = useCallback(
    async (result: unknown) => {
      setJustEnded(null);
      const started = result as { session: SessionView; attach: SessionStateView["attach"] };
      if (!(await refresh()))
        setState({ state: "focus", session: started.session, attach: started.attach, verdict: null, lastEnded: state.lastEnded });
    },
    [refresh, state.lastEnded],
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
  const away = reach.away ? <ServerAway since={reach.since} live={session !== null} /> : null;
  if (session) {
    return (
      <>
        {away}
        <NotAttachable state={state} onChanged={refresh} />
      </>
    );
  }
  const shown = justEnded ?? state.lastEnded;
  const ended = shown && shown.id !== failedStart ? shown : null; // the start form explains its own failure
  return (
    <>
      {away}
      {ended ? <EndedSession ended={ended} onStarted={started} /> : null}
      <StartForm
        agents={agents}
        suggestions={suggestions}
        onFailed={setFailedStart}
        onStarted={(next) => {
          setJustEnded(null);
          setState(next);
        }}
      />
    </>
  );
}

function NotAttachable({ state, onChanged }: { state: SessionStateView; onChanged: () => Promise<boolean> }) {
  const session = state.session!;
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<string | null>(null);
  // Another StudyLoop server runs it: name that server and link to it (its own page can attach).
  const owner = state.verdict?.kind === "live-elsewhere" && session.transport !== "tmux" ? session.owner : null;
  // Only a transport this page cannot render at all is named as such; a known one without a
  // connection says so plainly.
  const message =
    session.status === "ending"
      ? "This session is being ended. If it stays like this, the database may be busy: press End again to finish it."
      : !KNOWN_TRANSPORTS.has(session.transport)
        ? `This session uses the "${session.transport}" transport, which this page cannot show.`
        : owner
          ? null
          : (state.verdict?.notice ??
            "The server did not return a connection for this session. Reload the page; if it stays like this, end the session and start a new one.");
  // End asked of the owner: it ends the session within a heartbeat; look again until it has.
  useEffect(() => {
    if (!asked) return;
    const timer = setInterval(() => void onChanged(), 1_000);
    return () => clearInterval(timer);
  }, [asked, onChanged]);
  const end = async () => {
    const answer = await callApi<{ message?: string }>("/api/session/end", { method: "POST" });
    setError(answer.ok ? null : answer.error);
    const message = answer.ok ? answer.value.message : undefined;
    if (message) setAsked(message);
    await onChanged();
  };
  return (
    <section className="panel notice warn" data-testid="not-attachable">
      <h2>{session.topic}</h2>
      {owner && session.status !== "ending" ? (
        <p data-testid="live-elsewhere">
          Live on <strong>{owner.host ?? "another machine"}</strong>
          {owner.url ? (
            <>
              {": open it at "}
              <a href={`${owner.url}/study`} data-testid="owner-link">
                {owner.url}
              </a>
              , or end it here.
            </>
          ) : (
            ": open StudyLoop on that machine to rejoin it, or end it here."
          )}
        </p>
      ) : (
        <p>{message}</p>
      )}
      {asked ? (
        <p className="muted" data-testid="end-asked">
          {asked}
        </p>
      ) : null}
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
