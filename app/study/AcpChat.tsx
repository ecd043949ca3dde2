"use client";
// The chat view of an ACP session: streamed answers, thoughts folded, tool calls as cards, the plan
// as a checklist, permission questions as buttons, photos and files from the phone, the turn's
// elapsed time with a "no answer" notice, Stop and Retry. Reconnecting catches up from the last
// event number this page saw.
import "./chat.css";
import { useEffect, useReducer, useRef, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";
import { ACP_LIMITS } from "@/common/acp-limits";
import { studySocket } from "../components/socket";
import { useServerNow } from "../components/server-clock";
import { EMPTY_CONVERSATION, foldEvents, secondsSince, type Conversation } from "./acp-conversation";
import { ChatEntry } from "./ChatEntry";
import { AttachButtons, PendingAttachments, type Pending } from "./ChatAttachments";
import { SessionHeader } from "./SessionHeader";
import { keepAttached, type AttachStatus } from "./keep-attached";

export function AcpChat({ session, onEnded }: { session: SessionView; onEnded: (view: SessionView) => void }) {
  const [conversation, addEvents] = useReducer((c: Conversation, events: AcpEventRecord[]) => foldEvents(c, events), EMPTY_CONVERSATION);
  const lastSeq = useRef(0);
  useEffect(() => {
    lastSeq.current = conversation.lastSeq; // where a reconnect's catch-up starts
  }, [conversation.lastSeq]);
  const [status, setStatus] = useState<AttachStatus>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState<Pending[]>([]);
  /** Retry pressed: the last message goes again once the stopped turn has ended (see onEvent). */
  const [retrying, setRetrying] = useState(false);
  const retry = useRef<Conversation["lastPrompt"]>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const id = session.id;

  useEffect(() => {
    const socket = studySocket();
    let disposed = false;
    const onEvent = (sessionId: string, event: AcpEventRecord) => {
      if (sessionId !== id || disposed) return;
      addEvents([event]);
      if (event.kind === "turn_end" && retry.current) {
        const again = retry.current;
        retry.current = null;
        setRetrying(false);
        sendPrompt(id, again.text, again.attachments, setError);
      }
    };
    socket.on("acp:event", onEvent);
    const { release } = keepAttached(socket, {
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

  // A new item or a growing last one (a streamed reply) keeps the newest text in view.
  const lastItem = conversation.items.at(-1);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [conversation.items.length, lastItem]);

  const send = (event: React.FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || pending.some((p) => p.state === "uploading")) return;
    sendPrompt(
      id,
      text,
      pending.flatMap((p) => (p.state === "stored" && p.name ? [p.name] : [])),
      setError,
      () => {
        setDraft("");
        setPending([]);
      },
    );
  };
  const stop = () => studySocket().emit("acp:cancel", { sessionId: id }, (r) => (r.ok ? undefined : setError(r.error)));
  const stopAndRetry = () => {
    retry.current = conversation.lastPrompt;
    setRetrying(true);
    stop();
  };
  const answer = (requestId: string, optionId: string) =>
    studySocket().emit("acp:permission", { sessionId: id, requestId, optionId }, (r) => (r.ok ? undefined : setError(r.error)));

  const accepts = { image: conversation.agent?.image === true, file: conversation.agent?.embeddedContext === true };
  const uploading = pending.some((p) => p.state === "uploading");
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
        {conversation.items.map((item, i) => (
          <ChatEntry
            key={item.key}
            item={item}
            sessionId={id}
            streaming={conversation.busy && i === conversation.items.length - 1}
            onAnswer={answer}
          />
        ))}
      </ol>
      {conversation.turn ? <TurnStatus turn={conversation.turn} retrying={retrying} onStop={stop} onRetry={stopAndRetry} /> : null}
      <div ref={bottom} />
      <PendingAttachments pending={pending} sessionId={id} onRemove={(key) => setPending((all) => all.filter((p) => p.key !== key))} />
      <form className="composer" onSubmit={send}>
        <AttachButtons sessionId={id} accepts={accepts} disabled={status !== "live" || pending.length >= 4} onChange={setPending} />
        <label htmlFor="prompt" className="visually-hidden">
          Message to the tutor
        </label>
        <textarea
          id="prompt"
          rows={2}
          value={draft}
          maxLength={ACP_LIMITS.PROMPT_MAX_CHARS}
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
          <button type="submit" className="primary" disabled={!draft.trim() || status !== "live" || uploading}>
            Send
          </button>
        )}
      </form>
    </section>
  );
}

function sendPrompt(
  sessionId: string,
  text: string,
  attachments: readonly string[],
  onError: (error: string) => void,
  done?: () => void,
): void {
  studySocket().emit("acp:prompt", { sessionId, text, ...(attachments.length ? { attachments: [...attachments] } : {}) }, (result) => {
    if (result.ok) done?.();
    else onError(result.error);
  });
}

/** The running turn: how long it has run, and after a silence, how long since the tutor sent anything. */
function TurnStatus({
  turn,
  retrying,
  onStop,
  onRetry,
}: {
  turn: NonNullable<Conversation["turn"]>;
  retrying: boolean;
  onStop: () => void;
  onRetry: () => void;
}) {
  const now = useServerNow(1_000);
  if (now === null) return null;
  const elapsed = secondsSince(turn.startedAt, now);
  const silent = secondsSince(turn.lastEventAt, now);
  const stalled = silent * 1000 >= ACP_LIMITS.SILENCE_NOTICE_MS;
  return (
    <div className={`turn-status${stalled ? " stalled" : ""}`} data-testid="turn-status" role="status">
      <span data-testid="turn-elapsed">Answering for {duration(elapsed)}</span>
      {stalled ? (
        <span className="turn-silent" data-testid="turn-silent">
          {/* Nothing at all since the question: the two clocks would say the same thing twice. */}
          {turn.lastEventAt === turn.startedAt ? "Nothing has come back yet." : `No answer for ${duration(silent)}.`}{" "}
          {retrying ? (
            "Stopping, then asking again…"
          ) : (
            <>
              <button type="button" className="danger" onClick={onStop}>
                Stop
              </button>{" "}
              <button type="button" onClick={onRetry}>
                Retry
              </button>
            </>
          )}
        </span>
      ) : null}
    </div>
  );
}

function duration(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
