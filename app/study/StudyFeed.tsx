"use client";
// The live feed beside the tutor: topic marks and parked thoughts, newest first, as they are written
// (by the learner or by the agent), on every open page.
import type { MarkView, ParkedView } from "@/server/study/study-view";
import { markWord } from "@/server/study/study-view";
import { MakeCard } from "../review/MakeCard";
import { cardFromMark, cardFromParked } from "../review/prefill";

const time = (iso: string) => new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });

export function MarkFeed({ marks }: { marks: readonly MarkView[] }) {
  return (
    <section aria-labelledby="marks-heading">
      <h2 id="marks-heading">Topics this session</h2>
      {marks.length === 0 ? (
        <p className="muted">No topics marked yet. Mark a win when something clicks, a struggle when it does not.</p>
      ) : (
        <ul className="feed" data-testid="mark-feed">
          {[...marks].reverse().map((m) => (
            <li key={m.id} data-status={m.status}>
              <span className={`pill ${m.status}`}>{markWord(m.status)}</span> <strong>{m.topic}</strong>
              {m.note ? <span className="feed-note"> · {m.note}</span> : null}
              <div className="meta">
                {time(m.createdAt)}
                {m.source === "agent" ? " · from the tutor" : ""}
                {m.status === "struggling" || m.status === "insight" ? <> · <MakeCard origin={{ kind: "mark", id: m.id }} {...cardFromMark(m)} /></> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ParkedFeed({ parked }: { parked: readonly ParkedView[] }) {
  return (
    <section aria-labelledby="parked-heading">
      <h2 id="parked-heading">Parked thoughts</h2>
      {parked.length === 0 ? (
        <p className="muted">Nothing parked. When a question would pull you off track, park it and keep going.</p>
      ) : (
        <ul className="feed" data-testid="parked-feed">
          {[...parked].reverse().map((p) => (
            <li key={p.id} data-status={p.status}>
              <span className={p.status === "pending" || p.status === "carried" ? "" : "done-text"}>{p.text}</span>
              <div className="meta">
                {time(p.createdAt)}
                {p.source === "agent" ? " · from the tutor" : ""}
                {p.carriedFromId ? " · carried over from an earlier session" : ""}
                {p.status !== "pending" ? ` · ${p.status}` : ""} · <MakeCard origin={{ kind: "parked", id: p.id }} {...cardFromParked(p.text, p.sessionTopic)} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
