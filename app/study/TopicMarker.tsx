"use client";
// Mark how a topic is going from the page (the agent does the same with `studyloop topic`): one tap
// on a status writes the mark; the feed beside it shows it on every open page.
import { useState } from "react";
import { MARK_STATUSES, markWord, type MarkStatus } from "@/common/study/study-view";
import { callApi } from "../components/api-client";
import { ErrorAlert } from "../components/ErrorAlert";
import { TOPIC_MAX_CHARS } from "@/common/study/topic-limits";

export function TopicMarker({ defaultTopic }: { defaultTopic: string }) {
  const [topic, setTopic] = useState(defaultTopic);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const mark = async (status: MarkStatus) => {
    const name = topic.trim();
    if (!name) return setError("Name the topic first.");
    setBusy(true);
    setError(null);
    const answer = await callApi("/api/session/topics", { body: { topic: name, status, ...(note.trim() ? { note: note.trim() } : {}) } });
    setBusy(false);
    if (!answer.ok) setError(answer.error);
    else setNote("");
  };

  return (
    <form className="stack marker" onSubmit={(e) => e.preventDefault()} aria-labelledby="mark-heading">
      <h2 id="mark-heading">Mark a topic</h2>
      <div>
        <label htmlFor="mark-topic">Topic</label>
        <input id="mark-topic" type="text" maxLength={TOPIC_MAX_CHARS} value={topic} onChange={(e) => setTopic(e.target.value)} />
      </div>
      <div>
        <label htmlFor="mark-note">
          Note <span className="muted">(optional)</span>
        </label>
        <input
          id="mark-note"
          type="text"
          maxLength={2000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="what happened, what to try next"
        />
      </div>
      <div className="mark-buttons" role="group" aria-label="How is it going?">
        {MARK_STATUSES.map((status) => (
          <button key={status} type="button" className={`mark-${status}`} disabled={busy} onClick={() => void mark(status)}>
            {markWord(status)}
          </button>
        ))}
      </div>
      <ErrorAlert error={error} />
    </form>
  );
}
