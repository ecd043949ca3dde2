import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { queryOf } from "@/server/api/study-schemas";
import { StrugglesQuerySchema } from "@/server/cards/card-schemas";

export const dynamic = "force-dynamic";

/** A session's struggle marks that have no card yet: what its summary offers to turn into cards. */
export function GET(request: Request) {
  return handle(async () => {
    const { session } = parseBody(StrugglesQuerySchema, queryOf(request.url));
    return json({ struggles: await getRuntime().cards.cardlessStruggles(session) });
  });
}
