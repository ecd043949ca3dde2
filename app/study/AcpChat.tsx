"use client";
// The chat view of an ACP session: streamed answers, thoughts folded, tool calls as cards, the plan
// as a checklist, permission questions as buttons, and Stop. Reconnecting catches up from the last
// event number this page saw.
import { useEffect, useReducer, useRef, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";
import { studySocket } from "../components/socket";
import { Markdown } from "../components/Markdown";
import { EMPTY_CONVERSATION, foldEvents, type ChatItem, type Conversation } from "./acp-conversation";
import { SessionHeader } from "./SessionHeader";
import { keepAttached, type AttachStatus } from "./keep-attached";


export function AcpChat({ session, onEnded }: { session: SessionView; onEnded: (view: SessionView) => void }) {
  const [conversation, addEvents] = useReducer((c: Conversation, events: AcpEventRecord[]) => foldEvents(c, events), EMPTY_CONVERSATION);
  const lastSeq = useRef(0);
  lastSeq.current = conversation.lastSeq;
  const [status, setStatus] = useState<AttachStatus>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const bottom = useRef<HTMLDivElement>(null);
  const id = session.id;

  useEffect(() => {
    const socket = studySocket();
    let disposed = false;
    const onEvent = (sessionId: string, event: AcpEventRecord) => {
      if (sessionId === id && !disposed) addEvents([event]);
    };
    socket.on("acp:event", onEvent);
    const release = keepAttached(socket, {
      sessionId: id,
      request: (ack) => socket.emit("acp:attach", { sessionId: id, sinceSeq: lastSeq.current }, ack),
      setStatus,
      setError,
      onEnded,
    });
    return () => {
      disposed = true;
      release();
      socket.off("acp:event", onEvent);
      socket.emit("acp:detach", { sessionId: id });
    };
  }, [id, onEnded]);

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [conversation.items.length, conversation.items.at(-1)]);

  const send = (event: React.FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    studySocket().emit("acp:prompt", { sessionId: id, text }, (result) => {
      if (result.ok) setDraft("");
      else setError(result.error);
    });
  };
  const stop = () => studySocket().emit("acp:cancel", { sessionId: id }, (r) => (r.ok ? undefined : setError(r.error)));
  const answer = (requestId: string, optionId: string) =>
    studySocket().emit("acp:permission", { sessionId: id, requestId, optionId }, (r) => (r.ok ? undefined : setError(r.error)));

  return (
    <section className="chat" aria-label="Tutor chat">
      <SessionHeader session={session} status={status} statusTestId="chat-status" error={error} onError={setError} onEnded={onEnded} />
      {conversation.plan.length > 0 ? (
        <div className="panel plan" data-testid="plan">
          <strong>Plan</strong>
          <ul>
            {conversation.plan.map((entry, i) => (
              <li key={i} data-status={entry.status}>
                <input type="checkbox" readOnly checked={entry.status === "completed"} aria-label={entry.content} /> {entry.content}
                {entry.status === "in_progress" ? <span className="muted"> (in progress)</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ol className="messages" data-testid="messages">
        {conversation.items.length === 0 ? <li className="muted">Ask your tutor anything about {session.topic}.</li> : null}
        {conversation.items.map((item) => (
          <ChatEntry key={item.key} item={item} onAnswer={answer} />
        ))}
      </ol>
      <div ref={bottom} />
      <form className="composer" onSubmit={send}>
        <label htmlFor="prompt" className="visually-hidden">
          Message to the tutor
        </label>
        <textarea
          id="prompt"
          rows={2}
          value={draft}
          maxLength={16_000}
          placeholder={conversation.busy ? "The tutor is answering…" : "Ask the tutor"}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !conversation.busy) send(e);
          }}
        />
        {conversation.busy ? (
          <button type="button" className="danger" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!draft.trim() || status !== "live"}>
            Send
          </button>
        )}
      </form>
    </section>
  );
}

export function ChatEntry({ item, onAnswer, anchor }: { item: ChatItem; onAnswer?: (requestId: string, optionId: string) => void; anchor?: string }) {
  switch (item.type) {
    case "learner":
      return <li className="msg learner" data-testid="learner-message" id={anchor}>{item.text}</li>;
    case "agent":
      return (
        <li className="msg agent" data-testid="agent-message" id={anchor}>
          <Markdown text={item.text} />
        </li>
      );
    case "thought":
      return (
        <li className="msg thought">
          <details>
            <summary>Thinking</summary>
            <p>{item.text}</p>
          </details>
        </li>
      );
    case "tool":
      return (
        <li className="msg tool" data-testid="tool-call" data-status={item.status}>
          <span className="badge">{item.kind}</span> {item.title} <span className="muted">· {item.status.replace("_", " ")}</span>
        </li>
      );
    case "permission":
      return (
        <li className="msg permission panel" data-testid="permission">
          <p>
            <strong>The tutor asks:</strong> {item.title}
          </p>
          {item.answer === null && onAnswer ? (
            <div className="row">
              {item.options.map((o) => (
                <button key={o.optionId} className={o.kind.startsWith("allow") ? "primary" : ""} onClick={() => onAnswer(item.requestId, o.optionId)}>
                  {o.name}
                </button>
              ))}
            </div>
          ) : (
            <p className="muted">Answered: {item.answer ?? "no answer"}</p>
          )}
        </li>
      );
    case "notice":
      return <li className="msg notice muted">{item.text}</li>;
  }
}
