// The tutor instructions (persona) written into each session's own directory, so any agent can be
// pointed at them: TUTOR.md always, plus the file the agent's program reads by itself.
import { writeShellPrompt } from "./shell-prompt.ts";
import fs from "node:fs";
import path from "node:path";
import type { AgentDefinition } from "./agent-catalog.ts";
import type { TutorBriefing } from "../cards/card-store.ts";
import { reviewSection } from "../cards/tutor-briefing.ts";

export interface TutorContext {
  readonly topic: string;
  readonly energy: number;
  readonly focusMinutes: number;
  /** The topic's due cards and recent struggles (server/cards), when the database could be read. */
  readonly review?: TutorBriefing;
}

export function tutorInstructions(ctx: TutorContext): string {
  const pace =
    ctx.energy < 4
      ? "The learner's energy is low: keep steps small, check in often, celebrate small wins."
      : ctx.energy >= 7
        ? "The learner's energy is high: offer challenges and let them drive."
        : "The learner's energy is medium: balance explanation with practice.";
  return `# You are a patient tutor

The learner is studying **${ctx.topic}** (energy ${ctx.energy}/10, focus blocks of ${ctx.focusMinutes} minutes).
${pace}

- Teach by asking: a question first, then a hint, then the answer.
- Keep answers short enough to read on a phone.
- When the learner drifts to an unrelated question, park it instead of answering:
  \`studyloop park "the question"\`
- When the learner masters something or struggles with it, record it:
  \`studyloop topic "closures" --status win|struggling|learning|insight --note "what happened"\`
- Before explaining something, check what the learner did with it in earlier sessions, and build on it:
  \`studyloop recall "closures"\` prints the best matching moments (date, topic, what was said, a link).
  (these commands reach the StudyLoop server through STUDYLOOP_SESSION_ID and STUDYLOOP_SESSION_TOKEN,
  which are already set in your environment).
${reviewSection(ctx.topic, ctx.review)}`;
}

/** Writes TUTOR.md and the agent's own instruction files; returns the paths written. */
export function writeTutorInstructions(dir: string, agent: AgentDefinition, ctx: TutorContext): string[] {
  const text = tutorInstructions(ctx);
  const files = ["TUTOR.md", ...agent.instructionFiles];
  const written: string[] = [];
  for (const relative of new Set(files)) {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { mode: 0o600 });
    written.push(file);
  }
  const rc = writeShellPrompt(dir, agent.args);
  if (rc) written.push(rc);
  return written;
}
