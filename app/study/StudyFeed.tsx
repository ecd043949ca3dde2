"use client";
// The live feed beside the tutor: topic marks and parked thoughts, newest first, as they are written
// (by the learner or by the agent), on every open page. Each can be corrected or taken back.
import { useState, type ReactNode } from "react";
import type { MarkView, ParkedView } from "@/common/study/study-view";
import { MARK_STATUSES, markWord, type MarkStatus } from "@/common/study/study-view";
import { callApi, type ApiAnswer } from "../components/api-client";
import { ErrorAlert } from "../components/ErrorAlert";
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
            <MarkEntry key={m.id} mark={m} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MarkEntry({ mark: m }: { mark: MarkView }) {
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<MarkStatus>(m.status);
  const [note, setNote] = useState(m.note ?? "");
  const { error, run } = useAction();
  if (editing) {
    return (
      <EditRow
        status={m.status}
        error={error}
        onCancel={() => setEditing(false)}
        onSave={() => run(() => callApi(`/api/session/topics/${m.id}`, { method: "PATCH", body: { status, note: note.trim() || null } }))}
        onSaved={() => setEditing(false)}
      >
        <strong>{m.topic}</strong>
        <label htmlFor={`mark-status-${m.id}`}>How is it going?</label>
        <select id={`mark-status-${m.id}`} value={status} onChange={(e) => setStatus(e.target.value as MarkStatus)}>
          {MARK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {markWord(s)}
            </option>
          ))}
        </select>
        <label htmlFor={`mark-note-${m.id}`}>Note</label>
        <input id={`mark-note-${m.id}`} type="text" maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      </EditRow>
    );
  }
  return (
    <li data-status={m.status}>
      <span className={`pill ${m.status}`}>{markWord(m.status)}</span> <strong>{m.topic}</strong>
      {m.note ? <span className="feed-note"> · {m.note}</span> : null}
      <div className="meta">
        {time(m.createdAt)}
        {m.source === "agent" ? " · from the tutor" : ""}
        {m.status === "struggling" || m.status === "insight" ? (
          <>
            {" "}
            · <MakeCard origin={{ kind: "mark", id: m.id }} {...cardFromMark(m)} />
          </>
        ) : null}
        <ItemActions
          what={`the mark on ${m.topic}`}
          onEdit={() => {
            setStatus(m.status);
            setNote(m.note ?? "");
            setEditing(true);
          }}
          onRemove={() => void run(() => callApi(`/api/session/topics/${m.id}`, { method: "DELETE" }))}
        />
      </div>
      <ErrorAlert error={error} />
    </li>
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
            <ParkedEntry key={p.id} item={p} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ParkedEntry({ item: p }: { item: ParkedView }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(p.text);
  const { error, run } = useAction();
  if (editing) {
    return (
      <EditRow
        status={p.status}
        error={error}
        onCancel={() => setEditing(false)}
        onSave={() => run(() => callApi(`/api/parking/${p.id}`, { method: "PATCH", body: { text } }))}
        onSaved={() => setEditing(false)}
      >
        <label htmlFor={`parked-text-${p.id}`}>The thought</label>
        <textarea id={`parked-text-${p.id}`} rows={3} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
      </EditRow>
    );
  }
  return (
    <li data-status={p.status}>
      <span className={p.status === "pending" || p.status === "carried" ? "" : "done-text"}>{p.text}</span>
      <div className="meta">
        {time(p.createdAt)}
        {p.source === "agent" ? " · from the tutor" : ""}
        {p.carriedFromId ? " · carried over from an earlier session" : ""}
        {p.status !== "pending" ? ` · ${p.status}` : ""} ·{" "}
        <MakeCard origin={{ kind: "parked", id: p.id }} {...cardFromParked(p.text, p.sessionTopic)} />
        <ItemActions
          what="this parked thought"
          onEdit={() => {
            setText(p.text);
            setEditing(true);
          }}
          onRemove={() => void run(() => callApi(`/api/parking/${p.id}`, { method: "DELETE" }))}
        />
      </div>
      <ErrorAlert error={error} />
    </li>
  );
}

/** A feed entry while it is being corrected: its fields, Save and Cancel, and the refusal if any. */
function EditRow({
  status,
  error,
  onSave,
  onSaved,
  onCancel,
  children,
}: {
  status: string;
  error: string | null;
  onSave: () => Promise<boolean>;
  onSaved: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <li data-status={status}>
      <form
        className="stack feed-edit"
        onSubmit={(e) => {
          e.preventDefault();
          void onSave().then((ok) => ok && onSaved());
        }}
      >
        {children}
        <div className="row">
          <button type="submit" className="primary">
            Save
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
        <ErrorAlert error={error} />
      </form>
    </li>
  );
}

function ItemActions({ what, onEdit, onRemove }: { what: string; onEdit: () => void; onRemove: () => void }) {
  return (
    <span className="item-actions">
      {" · "}
      <button type="button" className="link-button" onClick={onEdit} aria-label={`Edit ${what}`}>
        Edit
      </button>
      {" · "}
      <button type="button" className="link-button" onClick={onRemove} aria-label={`Take back ${what}`}>
        Take back
      </button>
    </span>
  );
}

/** Runs a request; keeps its error sentence; resolves with whether it worked. */
function useAction() {
  const [error, setError] = useState<string | null>(null);
  const run = async (request: () => Promise<ApiAnswer<unknown>>) => {
    setError(null);
    const answer = await request();
    setError(answer.ok ? null : answer.error);
    return answer.ok;
  };
  return { error, run };
}
