// Schemas for the session lifecycle's HTTP boundaries beyond the start (schemas.ts).
import { z } from "zod";

export const ContinueSessionSchema = z
  .object({
    sessionId: z.string({ error: "sessionId is required: the session to continue" }).uuid("sessionId must be a session id"),
  })
  .strict();
export type ContinueSessionInput = z.infer<typeof ContinueSessionSchema>;
