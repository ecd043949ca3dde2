// The end-of-session summary, built from what the learner and the agent recorded. Pure.
import { z } from "zod";

export const SummarySchema = z.object({
  durationMinutes: z.number(),
  focusMinutes: z.number(),
  wins: z.array(z.string()),
  struggles: z.array(z.string()),
  insights: z.array(z.string()),
  parked: z.array(z.string()),
  forNextSession: z.array(z.string()),
});

export type Summary = z.infer<typeof SummarySchema>;

export interface SummaryInput {
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly pausedMs: number;
  /** A pause still open at the end counts as paused up to the end. */
  readonly pausedAt?: Date | null;
  readonly marks: readonly { topic: string; status: string; note: string | null }[];
  readonly parked: readonly { text: string; status: string }[];
}

export function buildSummary(input: SummaryInput): Summary {
  const durationMs = Math.max(0, input.endedAt.getTime() - input.startedAt.getTime());
  const openPauseMs = input.pausedAt ? Math.max(0, input.endedAt.getTime() - input.pausedAt.getTime()) : 0;
  const focusMs = Math.max(0, durationMs - input.pausedMs - openPauseMs);
  const byStatus = (status: string) => unique(input.marks.filter((m) => m.status === status).map((m) => m.topic));
  const wins = byStatus("win");
  // A topic first marked as a struggle and later won is no longer a struggle.
  const struggles = byStatus("struggling").filter((t) => !wins.includes(t));
  // Still open: pending items, and those the learner chose to carry into the next session.
  const pending = input.parked.filter((p) => p.status === "pending" || p.status === "carried").map((p) => p.text);
  return {
    durationMinutes: Math.round(durationMs / 60_000),
    focusMinutes: Math.round(focusMs / 60_000),
    wins,
    struggles,
    insights: byStatus("insight"),
    parked: input.parked.map((p) => p.text),
    forNextSession: [...struggles.map((t) => `Revisit ${t}`), ...pending],
  };
}

export function parseSummary(text: string | null): Summary | null {
  if (!text) return null;
  try {
    const parsed = SummarySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
