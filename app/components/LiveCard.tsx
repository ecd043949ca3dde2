"use client";
// The live session card: the same state GET /api/session/state returns, pushed on every change.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { SessionStateView, SessionView } from "@/server/sessions/session-view";
import { formatClock, readTimer } from "@/common/study/timer";
import { useStudyLive } from "./study-live";
import { useServerNow } from "./server-clock";
import { studySocket } from "./socket";
import { clockOf, useServerReachable } from "./server-reachable";

/** How long after a change the dashboard's charts are re-read (ms). */
const REFRESH_DELAY_MS = 1_000;
/** How often the dashboard's charts are re-read while a session is live. */
const CHARTS_REFRESH_MS = 60_000;

/** What the charts and history depend on in the live state. */
function chartKey(state: SessionStateView): string {
  const s = state.session;
  return s ? `${s.id}:${s.winCount}:${s.struggleCount}` : "none";
}

export function LiveCard({ initial }: { initial: SessionStateView }) {
  const [state, setState] = useState(initial);
  const reach = useServerReachable();
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

  // When a session starts or ends, or marks a win or a struggle, the page's history and charts
  // (rendered by the server) are read again; while one is live, also once a minute, so today's
  // square grows with it.
  const router = useRouter();
  const id = state.session?.id ?? null;
  const shown = useRef(chartKey(initial));
  const key = chartKey(state);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    // A moment later, and only if the server is still there: a server that is stopping pushes the
    // ended state just before it goes, and a refresh that fails makes Next navigate to an error page.
    const timer = setTimeout(() => {
      if (studySocket().connected) router.refresh();
    }, REFRESH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, router]);
  useEffect(() => {
    // Nothing to re-read while the server is away (a refresh would only fail).
    if (!id || reach.away) return;
    const timer = setInterval(() => {
      if (studySocket().connected) router.refresh();
    }, CHARTS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [id, router, reach.away]);

  const s = state.session;
  if (s && reach.away) {
    // What was live may have ended meanwhile: say what is known, not "live".
    return (
      <section className="panel notice warn" data-testid="live-card" data-state="unreachable">
        <div className="row">
          <span className="badge" data-testid="live-badge">
            not reachable
          </span>
          <strong>{s.topic}</strong>
        </div>
        <p>
          StudyLoop is not reachable since {reach.since === null ? "a moment ago" : clockOf(reach.since)}: this session may have ended. This
          card shows what happened as soon as the server is back.
        </p>
        <LiveLoop session={s} stoppedAt={reach.since} />
      </section>
    );
  }
  if (!s) {
    return (
      <section className="panel" data-testid="live-card" data-state={reach.away ? "unreachable" : state.state}>
        {reach.away ? (
          <p className="muted" data-testid="live-away">
            StudyLoop is not reachable since {reach.since === null ? "a moment ago" : clockOf(reach.since)}.
          </p>
        ) : null}
        <p>No session is running.</p>
        {state.lastEnded ? (
          <p className="muted">
            Last session: “{state.lastEnded.topic}”. {state.lastEnded.explanation}
          </p>
        ) : null}
        <Link className="button primary" href="/study">
          Start a study session
        </Link>
      </section>
    );
  }
  return (
    <section className="panel notice" data-testid="live-card" data-state={state.state}>
      <div className="row">
        <span className="badge live" data-testid="live-badge">
          {state.state === "starting" ? "starting" : state.state === "ending" ? "ending" : "live"}
        </span>
        <strong>{s.topic}</strong>
        <span className="muted">
          with {s.agent} since {new Date(s.startedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}
        </span>
      </div>
      <LiveLoop session={s} />
      {s.keptUntil ? (
        <p className="muted" data-testid="kept-until">
          On a break: kept until {clockOf(Date.parse(s.keptUntil))}, even with no page open.
        </p>
      ) : null}
      {state.verdict?.notice ? <p className="muted">{state.verdict.notice}</p> : null}
      <Link className="button primary" href="/study">
        {state.attach ? "Open the session" : "See the session"}
      </Link>
    </section>
  );
}

/** The focus time and the session's marks and parked thoughts, as they change. */
function LiveLoop({ session, stoppedAt = null }: { session: SessionView; stoppedAt?: number | null }) {
  const serverNow = useServerNow();
  const now = stoppedAt ?? serverNow;
  const { view } = useStudyLive(session.id);
  const timer = view?.timer ?? session.timer;
  const reading = now === null ? null : readTimer(timer, now);
  const wins = view?.winCount ?? session.winCount;
  const struggles = view?.struggleCount ?? session.struggleCount;
  const parked = view?.parked.length ?? 0;
  return (
    <p className="live-loop" data-testid="live-loop">
      <span data-testid="live-focus">
        {reading === null
          ? "Focus –:––"
          : reading.paused
            ? `Paused at ${formatClock(reading.focusMs)} of focus`
            : `Focus ${formatClock(reading.focusMs)}`}
      </span>
      {reading?.next && !reading.paused ? <span className="muted"> · break in {formatClock(reading.next.inMs)}</span> : null}
      <span className="muted" data-testid="live-counts">
        {" "}
        · {wins} {wins === 1 ? "win" : "wins"} · {struggles} {struggles === 1 ? "struggle" : "struggles"} · {parked} parked
      </span>
    </p>
  );
}
