import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

/** What a new session starts with: recent topics, and "for next session" from the last one. */
export function GET() {
  return handle(async () => json(await getRuntime().study.history.suggestions()));
}
