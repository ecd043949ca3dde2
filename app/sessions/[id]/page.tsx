import Link from "next/link";
import { notFound } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { SessionSummary } from "../../components/SessionSummary";
import { TranscriptView } from "./TranscriptView";
import { AcpTranscript } from "./AcpTranscript";

export const dynamic = "force-dynamic";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { sessions, study } = getRuntime();
  const found = /^[0-9a-f-]{36}$/.test(id) ? await sessions.session(id) : null;
  if (!found) notFound();
  const { view, transcript } = found;
  const [marks, parked, acpEvents] = await Promise.all([
    study.marks(id),
    study.parked(id),
    view.transport === "acp" ? sessions.acpEvents(id) : Promise.resolve([]),
  ]);
  return (
    <div className="stack">
      <h1>{view.topic}</h1>
      <p className="muted">
        {new Date(view.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} · {view.agent} · energy{" "}
        {view.energy}/10
      </p>
      {view.status === "ended" ? (
        <section className="panel notice" data-testid="ended-explanation">
          <p>{view.explanation}</p>
          <SessionSummary session={view} />
        </section>
      ) : (
        <section className="panel notice">
          <p>
            This session is still running. <Link href="/study">Open it on the study page.</Link>
          </p>
        </section>
      )}
      <section>
        <h2>Topics</h2>
        {marks.length === 0 ? (
          <p className="muted">No topics marked.</p>
        ) : (
          <ul>
            {marks.map((m) => (
              <li key={m.id}>
                <strong>{m.topic}</strong>: {m.status}
                {m.note ? ` (${m.note})` : ""} <span className="muted">{m.source === "agent" ? "· from the tutor" : ""}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h2>Parked thoughts</h2>
        {parked.length === 0 ? (
          <p className="muted">Nothing parked.</p>
        ) : (
          <ul>
            {parked.map((p) => (
              <li key={p.id}>
                {p.text} <span className="muted">· {p.status}{p.source === "agent" ? " · from the tutor" : ""}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h2>Transcript</h2>
        {view.transport === "acp" ? (
          <AcpTranscript events={acpEvents} />
        ) : transcript ? (
          <TranscriptView transcript={transcript} />
        ) : (
          <p className="muted">No transcript was saved for this session.</p>
        )}
      </section>
    </div>
  );
}
