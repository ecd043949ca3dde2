// The part of TUTOR.md about review: the topic's due cards and recent struggles, so the tutor can
// open with retrieval practice, and how to write cards. Pure.
import type { TutorBriefing } from "./card-store.ts";

/** Card sides longer than this are cut in TUTOR.md (the tutor can run `studyloop cards --due`). */
const SIDE_CHARS = 200;

export function reviewSection(topic: string, briefing: TutorBriefing | undefined): string {
  const lines: string[] = ["", "## Review and cards", ""];
  if (briefing && briefing.dueCount > 0) {
    lines.push(
      `The learner has ${briefing.dueCount} card${briefing.dueCount === 1 ? "" : "s"} on **${topic}** due for review. Open with retrieval practice: ask these`,
      "questions one at a time, let the learner answer before you say the back, then move on to new material.",
      "",
      ...briefing.dueCards.map((c, i) => `${i + 1}. Q: ${oneLine(c.front)}\n   A: ${oneLine(c.back)}`),
    );
    if (briefing.dueCount > briefing.dueCards.length)
      lines.push("", `(${briefing.dueCount - briefing.dueCards.length} more: \`studyloop cards --due --topic ${shellWord(topic)}\`.)`);
  } else {
    lines.push(`No cards on **${topic}** are due for review today.`);
  }
  if (briefing && briefing.struggles.length > 0) {
    lines.push(
      "",
      "Recently the learner struggled with:",
      "",
      ...briefing.struggles.map((s) => `- ${oneLine(s.topic)}${s.note ? `: ${oneLine(s.note)}` : ""} (${s.at.slice(0, 10)})`),
    );
  }
  lines.push(
    "",
    "When the learner struggles with something and then gets it, write a card or two so it comes back for review",
    "(short question on the front, the answer on the back):",
    `  \`studyloop card "What does a closure capture?" "The variables of its lexical scope, by reference" --topic ${shellWord(topic)}\``,
    `List the due cards with \`studyloop cards --due --topic ${shellWord(topic)}\`.`,
    "",
  );
  return lines.join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SIDE_CHARS ? `${flat.slice(0, SIDE_CHARS - 1)}…` : flat;
}

function shellWord(word: string): string {
  return /^[\w.-]+$/.test(word) ? word : `"${word.replaceAll(/["\\$`]/g, (c) => `\\${c}`)}"`;
}
