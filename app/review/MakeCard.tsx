"use client";
// "Make a card": from a struggle or insight mark, a parked thought, a transcript passage, or by hand.
// The front and back come prefilled and stay editable; the card is written only when the learner saves.
import { useEffect, useRef, useState } from "react";
import type { CardOriginInput } from "@/server/cards/card-schemas";
import { ErrorAlert } from "../components/ErrorAlert";
import { callApi } from "../components/api-client";
import "./review.css";
import { TOPIC_MAX_CHARS } from "@/common/study/topic-limits";

export interface MakeCardProps {
  readonly origin: CardOriginInput;
  readonly front?: string;
  readonly back?: string;
  readonly topic?: string;
  /** The button's words; "Make a card" by default. */
  readonly label?: string;
  readonly className?: string;
  /** Told after the card is saved (e.g. to hide the offer). */
  readonly onMade?: () => void;
}

const SIDE_MAX = 2_000;

export function MakeCard({ origin, front = "", back = "", topic = "", label = "Make a card", className, onMade }: MakeCardProps) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState({ front, back, topic });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  const show = () => {
    setValues({ front, back, topic });
    setError(null);
    setOpen(true);
  };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await callApi("/api/cards", { body: { front: values.front, back: values.back, topic: values.topic, origin } });
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    setOpen(false);
    setMade(true);
    onMade?.();
  };

  const field = (name: "front" | "back") => (e: React.ChangeEvent<HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));
  return (
    <>
      <button type="button" className={className ?? "link-button"} onClick={show} data-testid="make-card">
        {made ? "Card made ✓ · another" : label}
      </button>
      <dialog ref={dialog} className="card-dialog" aria-labelledby="make-card-heading" onClose={() => setOpen(false)}>
        {open ? (
          <form method="dialog" onSubmit={save} className="stack">
            <h2 id="make-card-heading">New review card</h2>
            <div>
              <label htmlFor="card-front">Front: the question</label>
              <textarea id="card-front" rows={3} maxLength={SIDE_MAX} value={values.front} onChange={field("front")} autoFocus />
            </div>
            <div>
              <label htmlFor="card-back">Back: the answer</label>
              <textarea id="card-back" rows={4} maxLength={SIDE_MAX} value={values.back} onChange={field("back")} />
            </div>
            <div>
              <label htmlFor="card-topic">Topic</label>
              <input
                id="card-topic"
                type="text"
                maxLength={TOPIC_MAX_CHARS}
                value={values.topic}
                onChange={(e) => setValues((v) => ({ ...v, topic: e.target.value }))}
              />
            </div>
            <ErrorAlert error={error} />
            <div className="row">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? "Saving…" : "Save card"}
              </button>
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : null}
      </dialog>
    </>
  );
}
