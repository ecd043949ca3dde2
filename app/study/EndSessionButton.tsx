"use client";
// "End session", asking first: the tutor stops and the summary is written. The question is a modal
// dialog (the browser's top layer), so no terminal or panel can cover it.
import { useEffect, useRef, useState } from "react";
import type { SessionView } from "@/server/sessions/session-view";
import { callApi } from "../components/api-client";

/** When the server refused without saying why, or answered without the ended session. */
const NOT_ENDED = "Could not end the session.";

export function EndSessionButton({ onEnded, onError }: { onEnded: (view: SessionView) => void; onError: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (confirming && !d.open) d.showModal();
    if (!confirming && d.open) d.close();
  }, [confirming]);

  const end = async () => {
    setConfirming(false);
    const answer = await callApi<{ session?: SessionView }>("/api/session/end", {
      method: "POST",
      refused: () => NOT_ENDED,
      unreachable: "Could not reach the StudyLoop server, so the session was not ended. Try again when it is back.",
    });
    if (!answer.ok) onError(answer.error);
    else if (answer.value.session) onEnded(answer.value.session);
    else onError(NOT_ENDED);
  };
  return (
    <>
      <button className="danger" onClick={() => setConfirming(true)}>
        End session
      </button>
      <dialog ref={dialog} aria-labelledby="end-title" onClose={() => setConfirming(false)}>
        <h2 id="end-title">End this session?</h2>
        <p>The tutor stops and StudyLoop writes your summary. Your notes stay.</p>
        <div className="row">
          <button onClick={() => setConfirming(false)}>Keep studying</button>
          <button className="danger" onClick={() => void end()}>
            End session
          </button>
        </div>
      </dialog>
    </>
  );
}
