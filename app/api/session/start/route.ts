import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { StartSessionSchema, parseBody } from "@/server/api/schemas";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handle(async () => {
    const input = parseBody(StartSessionSchema, await readJson(request));
    const result = await getRuntime().sessions.start(input);
    return json(result, 201);
  });
}
