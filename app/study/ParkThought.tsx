"use client";
// "Park a thought": a stray question goes into the parking lot at once, and focus goes back to
// where it was (usually the tutor's terminal). Alt+P opens it from anywhere on the page, even while
// the terminal has the keyboard; on a phone the button sits at the bottom, under the thumb.
import { useCallback, useEffect, useRef, useState } from "react";
import { callApi } from "../components/api-client";
import { ErrorAlert } from "../components/ErrorAlert";
import { focusTutor } from "./focus-switch";

/** The shortcut, as shown to the learner. Matched by key code so Option+P on a Mac works too. */
export const PARK_SHORTCUT = "Alt+P";
const TEXT_MAX_CHARS = 2_000;

export function ParkThought() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const returning = useRef(false);

  const show = useCallback(() => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
    setError(null);
    setDone(null);
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    setText("");
    setError(null);
    // Back to what the learner was doing once the dialog is gone (a modal dialog keeps the focus).
    returning.current = true;
  }, []);

  useEffect(() => {
    // Capture phase: the terminal would otherwise take the key press as input for the agent.
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === "KeyP") {
        event.preventDefault();
        event.stopPropagation();
        show();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [show]);

  useEffect(() => {
    // Modal: the rest of the page waits (and Escape closes it) while the thought is written.
    const d = dialog.current;
    if (d) {
      if (open && !d.open) d.showModal();
      if (!open && d.open) d.close();
      if (open) input.current?.focus();
    }
    // Closed, the dialog is already gone from the page (it renders only while open): focus goes back.
    if (!open && returning.current) {
      // The terminal keeps its place; the tutor's input if what had the focus is gone.
      returning.current = false;
      const back = returnTo.current;
      if (back && back.isConnected && back !== document.body) back.focus();
      else focusTutor();
    }
  }, [open]);

  const submit = async (event?: React.FormEvent) => {
    event?.preventDefault();
    const thought = text.trim();
    if (!thought) return setError("Write the thought first, then park it.");
    setBusy(true);
    const answer = await callApi("/api/parking", { body: { text: thought } });
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    close();
    setDone(`Parked: “${thought.length > 60 ? `${thought.slice(0, 57)}…` : thought}”. Back to focus.`);
  };

  return (
    <>
      <div className="park-dock">
        <button
          className="primary park-button"
          onClick={show}
          aria-keyshortcuts="Alt+P"
          title={`Park a thought (${PARK_SHORTCUT})`}
          data-testid="park-button"
        >
          Park a thought <kbd className="shortcut">{PARK_SHORTCUT}</kbd>
        </button>
      </div>
      {done ? (
        <p className="muted park-done" role="status" data-testid="park-done">
          {done}
        </p>
      ) : null}
      {open ? (
        <dialog
          ref={dialog}
          className="park-dialog"
          aria-labelledby="park-title"
          data-testid="park-dialog"
          onCancel={(e) => {
            e.preventDefault();
            close();
          }}
        >
          <form onSubmit={(e) => void submit(e)} className="stack">
            <h2 id="park-title">Park a thought</h2>
            <p className="muted">Write it down and get back to focus: it waits in the parking lot for after the session.</p>
            <label htmlFor="park-text" className="visually-hidden">
              The thought to park
            </label>
            <textarea
              id="park-text"
              ref={input}
              rows={3}
              maxLength={TEXT_MAX_CHARS}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="e.g. why does JavaScript hoist functions?"
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  void submit();
                }
              }}
            />
            <ErrorAlert error={error} />
            <div className="row">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? "Parking…" : "Park it"}
              </button>
              <button type="button" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        </dialog>
      ) : null}
    </>
  );
}
