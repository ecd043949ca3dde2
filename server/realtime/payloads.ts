// One zod schema per socket payload.
import { z } from "zod";
import { plainText } from "../security/plain-text-schema.ts";
import { ACP_LIMITS } from "../transports/acp/acp-events.ts";
import { ATTACHMENT_LIMITS, STORED_NAME } from "../transports/acp/attachments.ts";

/** One input message: far more than any paste a learner makes, far less than a flood. */
export const INPUT_MAX_CHARS = 64 * 1024;

/** A session's id, as every terminal payload and a terminal lane's address carry it. */
export const SessionIdSchema = z.string().uuid();
const sessionId = SessionIdSchema;

export const AttachSchema = z
  .object({
    sessionId,
    sinceSeq: z.number().int().min(-1).optional(),
    packed: z.boolean().optional(),
    binary: z.boolean().optional(),
    inputOnly: z.boolean().optional(),
    lane: z.boolean().optional(),
  })
  .strict();
export const DetachSchema = z.object({ sessionId }).strict();
export const InputSchema = z.object({ sessionId, data: z.string().min(1).max(INPUT_MAX_CHARS), binary: z.boolean().optional() }).strict();
export const ResizeSchema = z
  .object({
    sessionId,
    cols: z.number().int().min(2).max(500),
    rows: z.number().int().min(1).max(300),
    device: z.enum(["phone", "laptop"]).optional(),
    dark: z.boolean().optional(),
  })
  .strict();
/** terminal:fit: the page asks for the terminal to take its size. */
export const FitSchema = z.object({ sessionId }).strict();
/** terminal:lane-failed: the page's lane for this session closed before it ever opened. */
export const LaneFailedSchema = z.object({ sessionId }).strict();
export const AckSchema = z.object({ sessionId, chars: z.number().int().min(0).max(100_000_000) }).strict();

export const PromptSchema = z
  .object({
    sessionId,
    text: plainText("text", "text").min(1).max(ACP_LIMITS.PROMPT_MAX_CHARS),
    /** Names of files uploaded to this session's attachments/ (POST /api/sessions/:id/attachments). */
    attachments: z.array(z.string().regex(STORED_NAME)).max(ATTACHMENT_LIMITS.MAX_PER_MESSAGE).optional(),
  })
  .strict();
export const PermissionSchema = z
  .object({ sessionId, requestId: z.string().min(1).max(100), optionId: z.string().min(1).max(200) })
  .strict();

/** study:watch and study:unwatch: one session's study loop. */
export const StudyWatchSchema = z.object({ sessionId }).strict();
