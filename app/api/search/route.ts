import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { queryOf } from "@/server/api/study-schemas";
import { SearchQuerySchema } from "@/server/api/record-schemas";

export const dynamic = "force-dynamic";

/** The best matching moments across every session: `q` (literal words), `topic` (only its sessions), `limit` (1-100, default 20). */
export function GET(request: Request) {
  return handle(async () => {
    const { q, topic, limit } = parseBody(SearchQuerySchema, queryOf(request.url));
    return json({ hits: await getRuntime().study.history.moments(q, { limit, topic }) });
  });
}
