import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { HistoryQuerySchema, queryOf } from "@/server/api/study-schemas";

export const dynamic = "force-dynamic";

/** The history, newest first: `topic` filters by the session's topic, `q` searches summaries, notes and parked text. */
export function GET(request: Request) {
  return handle(async () => {
    const filter = parseBody(HistoryQuerySchema, queryOf(request.url));
    return json({ sessions: await getRuntime().study.history.list(filter) });
  });
}
