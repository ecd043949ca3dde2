// Schemas for the learning record's HTTP boundaries: search across sessions and the tutor's recall.
import { z } from "zod";
import { SEARCH_MAX_CHARS } from "./study-schemas.ts";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";

const words = (name: string) =>
  z
    .string({ error: `${name} must be the words to look for` })
    .trim()
    .min(1, `${name} is empty: say what to look for, e.g. closures`)
    .max(SEARCH_MAX_CHARS, `${name} must be at most ${SEARCH_MAX_CHARS} characters`);

export const SearchQuerySchema = z
  .object({
    q: words("q (the search)"),
    /** Only sessions on this topic (the dashboard's topic filter). */
    topic: z
      .string()
      .trim()
      .max(TOPIC_MAX_CHARS, `topic must be at most ${TOPIC_MAX_CHARS} characters`)
      .optional()
      .transform((v) => (v ? v : undefined)),
    limit: z.coerce
      .number({ error: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be 1 or more")
      .max(100, "limit must be at most 100")
      .optional(),
  })
  .strict();
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const RecallSchema = z
  .object({
    query: words("query"),
    limit: z
      .number({ error: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be 1 or more")
      .max(20, "limit must be at most 20")
      .optional(),
  })
  .strict();
export type RecallInput = z.infer<typeof RecallSchema>;

/** A moment in a recording, from the page's address (?t=761 or ?t=761.5), in seconds; null when absent or not a time. */
export function parseMoment(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text || !/^\d{1,7}(\.\d{1,3})?$/.test(text)) return null;
  return Number(text);
}
