"use client";
// "Make a card from the selection": a passage selected in a session's transcript (the terminal's
// selection, or text selected in a chat transcript) becomes a card, prefilled and editable.
import { useEffect, useState } from "react";
import { MakeCard } from "./MakeCard";
import { cardFromPassage } from "./prefill";

/** Shows the offer while `text` (the current selection) is not empty. */
export function PassageCard({ sessionId, topic, text }: { sessionId: string; topic: string; text: string }) {
  // The dialog keeps the passage it opened with, though clicking into it clears the selection.
  const [kept, setKept] = useState("");
  const [seen, setSeen] = useState(text);
  if (text !== seen) {
    setSeen(text);
    if (text.trim()) setKept(text);
  }
  if (!kept.trim()) return null;
  return (
    <div className="selection-card panel row" data-testid="passage-card">
      <span className="muted">{kept.trim().length} characters selected</span>
      <MakeCard
        origin={{ kind: "transcript", sessionId }}
        {...cardFromPassage(kept, topic)}
        label="Make a card from the selection"
        className="primary"
      />
      <button type="button" onClick={() => setKept("")}>
        Dismiss
      </button>
    </div>
  );
}

/** For a transcript shown as page text (a chat): follows the document's selection inside `containerId`. */
export function PagePassageCard({ sessionId, topic, containerId }: { sessionId: string; topic: string; containerId: string }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const onChange = () => {
      const selection = document.getSelection();
      const container = document.getElementById(containerId);
      if (!selection || !container || selection.isCollapsed || !selection.anchorNode || !container.contains(selection.anchorNode)) return;
      setText(selection.toString());
    };
    document.addEventListener("selectionchange", onChange);
    return () => document.removeEventListener("selectionchange", onChange);
  }, [containerId]);
  return <PassageCard sessionId={sessionId} topic={topic} text={text} />;
}
