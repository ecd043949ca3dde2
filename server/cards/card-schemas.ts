// One zod schema per card boundary (HTTP bodies and query strings, the CLI, the CSV import); the
// types are inferred from them. Messages are sentences a learner can act on.
import { z } from "zod";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";
import { plainText } from "../security/plain-text-schema.ts";
import { RATINGS } from "./scheduling.ts";

/** A card side: room for a paragraph and a code sample, small enough to read on a phone. */
export const CARD_SIDE_MAX_CHARS = 2_000;
/** Cards one import may add: far more than a hand-made CSV, bounded so one request stays cheap. */
export const IMPORT_MAX_CARDS = 1_000;
/** The CSV text of one import (the JSON body limit is 64 KB). */
export const IMPORT_MAX_CHARS = 60_000;

const side = (name: "front" | "back") =>
  plainText(name, "text", `${name} is required: write the ${name === "front" ? "question" : "answer"}`)
    .min(1, `${name} is empty: write the ${name === "front" ? "question" : "answer"}`)
    .max(CARD_SIDE_MAX_CHARS, `${name} must be at most ${CARD_SIDE_MAX_CHARS} characters`);

export const topicField = plainText("topic", "line")
  .min(1, "topic is empty: say what the card is about")
  .max(TOPIC_MAX_CHARS, `topic must be at most ${TOPIC_MAX_CHARS} characters`);

const id = (what: string) => z.string({ error: `${what} must be an id` }).regex(/^[0-9a-f-]{36}$/, `${what} must be an id`);

/** Where the learner made it from; the tutor's cards say nothing (they come from its session). */
export const CardOriginSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("mark"), id: id("origin.id (the topic mark)") }).strict(),
    z.object({ kind: z.literal("parked"), id: id("origin.id (the parked thought)") }).strict(),
    z.object({ kind: z.literal("transcript"), sessionId: id("origin.sessionId (the session)") }).strict(),
    z.object({ kind: z.literal("hand") }).strict(),
  ],
  { error: 'origin.kind must be "mark", "parked", "transcript" or "hand"' },
);
export type CardOriginInput = z.infer<typeof CardOriginSchema>;

export const NewCardSchema = z
  .object({
    front: side("front"),
    back: side("back"),
    // Optional only for the tutor: its session's topic is the default.
    topic: topicField.optional(),
    origin: CardOriginSchema.optional(),
  })
  .strict();
export type NewCardInput = z.infer<typeof NewCardSchema>;

export const EditCardSchema = z
  .object({ front: side("front").optional(), back: side("back").optional(), topic: topicField.optional() })
  .strict()
  .refine((v) => v.front !== undefined || v.back !== undefined || v.topic !== undefined, "Change the front, the back or the topic.");
export type EditCardInput = z.infer<typeof EditCardSchema>;

export const ReviewSchema = z
  .object({
    rating: z.enum(RATINGS, { error: 'rating must be "again", "hard", "good" or "easy"' }),
    // The review count the learner saw: a card reviewed meanwhile (another device) is not reviewed twice.
    reps: z.number({ error: "reps must be the card's review count" }).int("reps must be a whole number").min(0, "reps must be 0 or more"),
    durationMs: z
      .number({ error: "durationMs must be a number of milliseconds" })
      .int("durationMs must be a whole number")
      .min(0, "durationMs must be 0 or more")
      .max(24 * 3_600_000, "durationMs must be at most a day")
      .optional(),
  })
  .strict();
export type ReviewInput = z.infer<typeof ReviewSchema>;

const flag = z.enum(["1", "true", "0", "false"], { error: "due must be 1 or 0" }).transform((v) => v === "1" || v === "true");

export const CardsQuerySchema = z
  .object({
    topic: topicField.optional(),
    due: flag.optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, "limit must be a whole number from 1 to 1000")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, "limit must be a whole number from 1 to 1000")
      .optional(),
  })
  .strict();
export type CardsQuery = z.infer<typeof CardsQuerySchema>;

export const ExportQuerySchema = z.object({ topic: topicField.optional() }).strict();

export const ImportSchema = z
  .object({
    csv: z
      .string({ error: "csv must be the text of a CSV file" })
      .min(1, "The CSV file is empty: put one card per line, front,back[,topic].")
      .max(IMPORT_MAX_CHARS, `The CSV is too long: at most ${IMPORT_MAX_CHARS} characters per import.`),
    topic: topicField.optional(),
  })
  .strict();
export type ImportInput = z.infer<typeof ImportSchema>;

export const StrugglesQuerySchema = z
  .object({ session: z.string({ error: "session must be a session id" }).uuid("session must be a session id") })
  .strict();
