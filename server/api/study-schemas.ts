// Schemas for the study loop's HTTP boundaries beyond the ones in schemas.ts: the timer, the
// history's query string and the parking lot's filters. Types are inferred from them.
import { z } from "zod";
import { PARKED_STATUSES } from "../../common/study/study-view.ts";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";

/** Search words: long enough for any phrase, short enough to keep the query cheap. */
export const SEARCH_MAX_CHARS = 200;

export const TimerActionSchema = z
  .object({
    action: z.enum(["pause", "resume", "break", "continue"], {
      error: 'action must be "pause", "resume", "break" (take the break a nudge suggests) or "continue" (keep going)',
    }),
    nudge: z
      .number({ error: "nudge must be the number of a break nudge" })
      .int("nudge must be a whole number")
      .positive("nudge must be 1 or more")
      .optional(),
  })
  .strict();
export type TimerActionInput = z.infer<typeof TimerActionSchema>;

const optionalText = (name: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const HistoryQuerySchema = z
  .object({
    topic: optionalText("topic", TOPIC_MAX_CHARS),
    q: optionalText("q (the search)", SEARCH_MAX_CHARS),
  })
  .strict();
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

export const ParkingQuerySchema = z
  .object({
    session: z.string().uuid("session must be a session id").optional(),
    status: z.enum(PARKED_STATUSES, { error: `status must be one of ${PARKED_STATUSES.join(", ")}` }).optional(),
  })
  .strict();

/** The query string as an object; a parameter given twice is refused rather than guessed at. */
export function queryOf(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(url).searchParams) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

export const SESSION_ID = /^[0-9a-f-]{36}$/;
