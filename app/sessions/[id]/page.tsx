import Link from "next/link";
import { notFound } from "next/navigation";
import { getRuntime } from "@/server/runtime";
import { parseMoment } from "@/server/api/record-schemas";
import { chapterTitle } from "@/common/transcript-text";
import { SessionSummary } from "../../components/SessionSummary";
import { TranscriptView } from "./TranscriptView";
import { AcpTranscript } from "./AcpTranscript";
import { Timeline } from "./Timeline";
import { PagePassageCard } from "../../review/PassageCard";
import { StruggleCards } from "../../review/StruggleCards";
import { RecordPlayer } from "./RecordPlayer";
import { TextTranscript } from "./TextTranscript";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

export default async function SessionPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const { id } = await params;
  const startAt = parseMoment((await searchParams).t);
  const { sessions, study, record } = getRuntime();
  // The same reader as GET /api/sessions/:id.
  const found = /^[0-9a-f-]{36}$/.test(id) ? await study.history.detail(id) : null;
  if (!found) notFound();
  const { session: view, transcript, marks, parked } = found;
  const ended = view.status === "ended";
  const acp = view.transport === "acp";
  const [acpEvents, overview, segments] = await Promise.all([
    acp ? sessions.acpEvents(id) : [],
    record.overview(id, view.transport),
    acp ? null : record.transcript(id, ended),
  ]);
  const downloads = `/api/sessions/${id}`;
  return (
    <div className="stack">
      <h1>{view.topic}</h1>
      <p className="muted">
        {new Date(view.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} · {view.agent} · energy{" "}
        {view.energy}/10 · {view.focusPlan === "pomodoro" ? "Pomodoro" : "focus plan matched to energy"}
      </p>
      {ended ? (
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
      {overview?.playable ? (
        <section aria-labelledby="replay-heading" className="stack">
          <h2 id="replay-heading">Replay</h2>
          <RecordPlayer sessionId={id} startAt={startAt} markers={overview.markers} />
        </section>
      ) : null}
      <p className="row downloads" data-testid="downloads">
        <a className="button" href={`${downloads}/markdown`} download>
          Export as Markdown
        </a>
        {overview?.playable ? (
          <>
            <a className="button" href={`${downloads}/cast?download=1`} download>
              Download the recording (.cast)
            </a>
            <a className="button" href={`${downloads}/transcript`} download>
              Download the transcript (.txt)
            </a>
          </>
        ) : null}
      </p>
      <div className="record-columns">
        <section aria-labelledby="transcript-heading" className="stack">
          <h2 id="transcript-heading">{acp ? "Conversation" : "Transcript"}</h2>
          {acp ? (
            <>
              {overview && overview.markers.length > 0 ? (
                <ol className="chapters" data-testid="chapters" aria-label="Chapters">
                  {overview.markers.map((m, i) => (
                    <li key={i}>{chapterTitle(m.label, m.time)}</li>
                  ))}
                </ol>
              ) : null}
              <div id="acp-transcript-text">
                <AcpTranscript events={acpEvents} sessionId={view.id} />
                <PagePassageCard sessionId={view.id} topic={view.topic} containerId="acp-transcript-text" />
              </div>
            </>
          ) : segments ? (
            <div id="text-transcript-text">
              <TextTranscript segments={segments} playable={Boolean(overview?.playable)} />
              <PagePassageCard sessionId={view.id} topic={view.topic} containerId="text-transcript-text" />
            </div>
          ) : transcript ? (
            // Sessions from before recordings (or a CLI session in tmux): the last saved screen.
            <TranscriptView transcript={transcript} card={{ sessionId: view.id, topic: view.topic }} />
          ) : (
            <p className="muted">No transcript was saved for this session.</p>
          )}
        </section>
        <section aria-labelledby="timeline-heading" className="stack">
          <h2 id="timeline-heading">Timeline</h2>
          <p className="muted">Topic marks, parked thoughts and break nudges, with the time since the start.</p>
          <Timeline session={view} marks={marks} parked={parked} />
        </section>
      </div>
    </div>
  );
}
