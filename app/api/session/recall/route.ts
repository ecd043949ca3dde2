import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";
import { RecallSchema } from "@/server/api/record-schemas";

export const dynamic = "force-dynamic";

/**
 * `studyloop recall "closures"`: the best matching moments from past sessions. With the tutor's
 * session token (Bearer), its own session is left out: it asks about what the learner did before.
 */
export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const asker = await writerOf(request, runtime);
    const { query, limit } = parseBody(RecallSchema, await readJson(request));
    const hits = await runtime.study.history.moments(query, { limit: limit ?? 5, excludeSessionId: asker.sessionId });
    return json({ hits });
  });
}
