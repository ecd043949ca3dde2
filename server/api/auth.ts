// Who is writing: the learner (the page) or the agent (a Bearer session token from its environment).
import type { Runtime } from "../runtime.ts";
import { ApiError } from "./api-error.ts";

export type Writer = { source: "learner"; sessionId?: undefined } | { source: "agent"; sessionId: string };

export async function writerOf(request: Request, runtime: Runtime): Promise<Writer> {
  const header = request.headers.get("authorization");
  if (!header) return { source: "learner" };
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, "The Authorization header must be `Bearer <session token>`.");
  return { source: "agent", sessionId: await runtime.sessions.sessionForToken(match[1]!) };
}
