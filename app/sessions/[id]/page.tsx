import Link from "next/link";
import { notFound } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { SessionSummary } from "../../components/SessionSummary";
import { TranscriptView } from "./TranscriptView";
import { AcpTranscript } from "./AcpTranscript";
import { Timeline } from "./Timeline";
import { PagePassageCard } from "../../review/PassageCard";
import { StruggleCards } from "../../review/StruggleCards";

export const dynamic = "force-dynamic";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { sessions, study } = getRuntime();
  // The same reader as GET /api/sessions/:id.
  const found = /^[0-9a-f-]{36}$/.test(id) ? await study.history.detail(id) : null;
  if (!found) notFound();
  const { session: view, transcript, marks, parked } = found;
  const acpEvents = view.transport === "acp" ? await sessions.acpEvents(id) : [];
  return (
    <div className="stack">
      <h1>{view.topic}</h1>
      <p className="muted">
        {new Date(view.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} · {view.agent} · energy{" "}
        {view.energy}/10 · {view.focusPlan === "pomodoro" ? "Pomodoro" : "focus plan matched to energy"}
      </p>
      {view.status === "ended" ? (
        <section className="panel notice" data-testid="ended-explanation">
          <p>{view.explanation}</p>
          <SessionSummary session={view} />
          <StruggleCards sessionId={view.id} />
        </section>
      ) : (
        <section className="panel notice">
          <p>
            This session is still running. <Link href="/study">Open it on the study page.</Link>
          </p>
        </section>
      )}
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <p className="muted">Topic marks, parked thoughts and break nudges, with the time since the start.</p>
        <Timeline session={view} marks={marks} parked={parked} />
      </section>
      <section>
        <h2>Transcript</h2>
        {view.transport === "acp" ? (
          <div id="acp-transcript-text">
            <AcpTranscript events={acpEvents} sessionId={view.id} />
            <PagePassageCard sessionId={view.id} topic={view.topic} containerId="acp-transcript-text" />
          </div>
        ) : transcript ? (
          <TranscriptView transcript={transcript} card={{ sessionId: view.id, topic: view.topic }} />
        ) : (
          <p className="muted">No transcript was saved for this session.</p>
        )}
      </section>
    </div>
  );
}
