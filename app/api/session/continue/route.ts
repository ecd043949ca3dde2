import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { ContinueSessionSchema } from "@/server/api/session-schemas";

export const dynamic = "force-dynamic";

/** "Continue this session": a new session in the previous one's folder, the agent resumed. */
export function POST(request: Request) {
  return handle(async () => {
    const { sessionId } = parseBody(ContinueSessionSchema, await readJson(request));
    const runtime = getRuntime();
    const result = await runtime.sessions.continueSession(sessionId);
    await runtime.study.carryInto(result.session.id);
    return json(result, 201);
  });
}
