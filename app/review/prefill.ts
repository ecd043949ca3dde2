// What a new card's form starts with, from what it is made of. Pure; the learner edits it.

export function cardFromMark(mark: { topic: string; note: string | null; status?: string }): {
  front: string;
  back: string;
  topic: string;
} {
  const note = mark.note?.trim() ?? "";
  if (mark.status === "insight") return { front: `What was the insight about ${mark.topic}?`, back: note, topic: mark.topic };
  // A note that asks something is the question; otherwise the note is the start of the answer.
  if (note.endsWith("?")) return { front: note, back: "", topic: mark.topic };
  return { front: `Explain: ${mark.topic}`, back: note, topic: mark.topic };
}

export function cardFromParked(text: string, topic: string | null): { front: string; back: string; topic: string } {
  return { front: text.trim(), back: "", topic: topic ?? "" };
}

/** A selected transcript passage: the answer side, with its first line as a start for the question. */
export function cardFromPassage(passage: string, topic: string): { front: string; back: string; topic: string } {
  const text = passage.replace(/[ \t]+\n/g, "\n").trim();
  const firstLine = text.split("\n")[0]?.trim() ?? "";
  return { front: firstLine.length <= 120 && firstLine.endsWith("?") ? firstLine : "", back: text.slice(0, 2_000), topic };
}
