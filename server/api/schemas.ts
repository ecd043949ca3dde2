// One zod schema per HTTP boundary; request types are inferred from them.
import { z } from "zod";
import { AGENT_NAME } from "../agents/agent-catalog.ts";
import { badRequest } from "./api-error.ts";
import { plainText } from "../security/plain-text-schema.ts";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";

export const StartSessionSchema = z
  .object({
    topic: plainText("topic", "line", "topic is required: say what you are studying")
      .min(1, "topic is required: say what you are studying")
      .max(TOPIC_MAX_CHARS, `topic must be at most ${TOPIC_MAX_CHARS} characters`),
    energy: z
      .number({ error: "energy must be a whole number from 1 to 10" })
      .int("energy must be a whole number from 1 to 10")
      .min(1, "energy must be a whole number from 1 to 10")
      .max(10, "energy must be a whole number from 1 to 10"),
    agent: z
      .string({ error: "agent is required: choose a tutor agent" })
      .regex(AGENT_NAME, "agent must be an agent name (letters a-z, digits and -)"),
    transport: z.enum(["pty", "acp"], { error: 'transport must be "pty" (a terminal) or "acp" (a chat)' }).default("pty"),
    focusPlan: z.enum(["energy", "pomodoro"], { error: 'focusPlan must be "energy" or "pomodoro"' }).default("energy"),
  })
  .strict();

export type StartSessionInput = z.infer<typeof StartSessionSchema>;

/** Parses with a schema, or throws a 400 whose sentence names the field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    throw badRequest(`Unknown field ${issue.keys.map((k) => `"${k}"`).join(", ")}: remove it and try again.`);
  }
  const message = issue?.message ?? "The request is not valid.";
  throw badRequest(capitalise(message.endsWith(".") ? message : `${message}.`), { field: issue?.path.join(".") });
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export const PARKED_TEXT_MAX_CHARS = 2_000;

export const ParkSchema = z
  .object({
    text: plainText("text", "text", "text is required: write the thought to park")
      .min(1, "text is required: write the thought to park")
      .max(PARKED_TEXT_MAX_CHARS, `text must be at most ${PARKED_TEXT_MAX_CHARS} characters`),
  })
  .strict();

export const ParkingPatchSchema = z
  .object({
    status: z
      .enum(["pending", "resolved", "dismissed", "carried"], {
        error: 'status must be "pending", "resolved", "dismissed" or "carried" (into the next session)',
      })
      .optional(),
    /** A corrected thought (issue 16). */
    text: ParkSchema.shape.text.optional(),
  })
  .strict()
  .refine((p) => p.status !== undefined || p.text !== undefined, { message: "Give the new text or status of the thought." });

export const TopicMarkSchema = z
  .object({
    topic: plainText("topic", "line", "topic is required")
      .min(1, "topic is required")
      .max(TOPIC_MAX_CHARS, `topic must be at most ${TOPIC_MAX_CHARS} characters`),
    status: z.enum(["win", "struggling", "learning", "insight"], { error: 'status must be "win", "struggling", "learning" or "insight"' }),
    note: plainText("note", "text").max(PARKED_TEXT_MAX_CHARS, `note must be at most ${PARKED_TEXT_MAX_CHARS} characters`).optional(),
  })
  .strict();

/** A topic mark corrected from the study page (issue 16): any of its fields, at least one. */
export const TopicMarkPatchSchema = z
  .object({
    topic: TopicMarkSchema.shape.topic.optional(),
    status: TopicMarkSchema.shape.status.optional(),
    note: plainText("note", "text")
      .max(PARKED_TEXT_MAX_CHARS, `note must be at most ${PARKED_TEXT_MAX_CHARS} characters`)
      .nullable()
      .optional(),
  })
  .strict()
  .refine((p) => p.topic !== undefined || p.status !== undefined || p.note !== undefined, {
    message: "Give the topic, status or note to change.",
  });

export const RevokeAllSchema = z
  .object({
    keepThisDevice: z.boolean({ error: "keepThisDevice must be true (keep the device asking) or false" }).default(false),
  })
  .strict();
