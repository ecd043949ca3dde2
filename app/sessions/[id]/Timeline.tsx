"use client";
// A session in order: start, topic marks, parked thoughts, break nudges, end. While the session is
// live it follows the server's pushes; when it ends, the page is read again for the summary.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import { buildTimeline, markWord, type MarkView, type ParkedView, type TimelineEntry } from "@/common/study/study-view";
import { formatClock } from "@/common/study/timer";
import { useStudyLive } from "../../components/study-live";
import { MakeCard } from "../../review/MakeCard";
import { cardFromMark, cardFromParked } from "../../review/prefill";

export function Timeline({ session, marks, parked }: { session: SessionView; marks: readonly MarkView[]; parked: readonly ParkedView[] }) {
  const live = session.status !== "ended";
  const { view } = useStudyLive(live ? session.id : null);
  const router = useRouter();
  const endedNow = live && view?.status === "ended";
  useEffect(() => {
    if (endedNow) router.refresh();
  }, [endedNow, router]);

  const current = view ? { ...session, timer: view.timer, winCount: view.winCount, struggleCount: view.struggleCount } : session;
  const entries = buildTimeline(current, view?.marks ?? marks, view?.parked ?? parked);
  return (
    <ol className="timeline" data-testid="timeline">
      {entries.map((entry, i) => (
        <li key={`${entry.kind}-${entry.at}-${i}`} className={`tl-${entry.kind}`} data-kind={entry.kind}>
          <span className="tl-time" title={new Date(entry.at).toLocaleString("en-GB")}>
            +{formatClock(entry.offsetMs)}
          </span>
          <span className="tl-body">
            <Entry entry={entry} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function Entry({ entry }: { entry: TimelineEntry }) {
  switch (entry.kind) {
    case "mark": {
      const m = entry.mark;
      return (
        <>
          <span className={`pill ${m.status}`}>{markWord(m.status)}</span> <strong>{m.topic}</strong>
          {m.note ? ` · ${m.note}` : ""}
          {m.source === "agent" ? <span className="muted"> · from the tutor</span> : null}
          {m.status === "struggling" || m.status === "insight" ? (
            <>
              {" "}
              · <MakeCard origin={{ kind: "mark", id: m.id }} {...cardFromMark(m)} />
            </>
          ) : null}
        </>
      );
    }
    case "parked": {
      const p = entry.item;
      return (
        <>
          <span className="pill parked">Parked</span> {p.text}
          <span className="muted">
            {p.source === "agent" ? " · from the tutor" : ""}
            {p.carriedFromId ? " · carried over" : ""} · {p.status === "carried" ? "carried into the next session" : p.status}
          </span>{" "}
          · <MakeCard origin={{ kind: "parked", id: p.id }} {...cardFromParked(p.text, p.sessionTopic)} />
        </>
      );
    }
    case "nudge":
      return (
        <>
          <span className="pill nudge">Break</span> {entry.text}
        </>
      );
    default:
      return <>{entry.text}</>;
  }
}
