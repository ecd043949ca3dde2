// Which study events become markers on a recording: a mark (win, struggling, insight, learning), a
// parked thought, a break coming due, a pause, a resume, the end. Pure: it compares what a session's
// rows said last time with what they say now (the study loop's `changed` carries no payload).
export interface StudyFacts {
  /** Topic marks by id. */
  readonly marks: readonly { readonly id: string; readonly topic: string; readonly status: string }[];
  /** Parked thoughts by id. */
  readonly parked: readonly { readonly id: string; readonly text: string }[];
  readonly paused: boolean;
  /** Break nudges recorded so far. */
  readonly nudges: number;
}

export const NO_FACTS: StudyFacts = { marks: [], parked: [], paused: false, nudges: 0 };

/** A label short enough for the player's timeline. */
export const LABEL_MAX_CHARS = 60;

export function shorten(text: string, max = LABEL_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The markers for what changed between two readings, in a stable order. */
export function markerLabels(before: StudyFacts, after: StudyFacts): string[] {
  const labels: string[] = [];
  const seenMarks = new Set(before.marks.map((m) => m.id));
  for (const m of after.marks) if (!seenMarks.has(m.id)) labels.push(shorten(`${m.status}: ${m.topic}`));
  const seenParked = new Set(before.parked.map((p) => p.id));
  for (const p of after.parked) if (!seenParked.has(p.id)) labels.push(shorten(`parked: ${p.text}`));
  for (let n = before.nudges; n < after.nudges; n++) labels.push("break due");
  if (!before.paused && after.paused) labels.push("paused");
  if (before.paused && !after.paused) labels.push("resumed");
  return labels;
}

/** The last marker: "ended", with the reason unless the learner ended it. */
export function endedLabel(endReason: string | null | undefined): string {
  return !endReason || endReason === "ended-by-learner" ? "ended" : `ended: ${endReason.replaceAll("-", " ")}`;
}
