import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { StartSessionSchema, parseBody } from "@/server/api/schemas";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handle(async () => {
    const input = parseBody(StartSessionSchema, await readJson(request));
    const runtime = getRuntime();
    const result = await runtime.sessions.start(input);
    // Thoughts the learner chose to carry over join this session's parking lot.
    await runtime.study.carryInto(result.session.id);
    return json(result, 201);
  });
}
