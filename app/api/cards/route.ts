import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { queryOf } from "@/server/api/study-schemas";
import { writerOf } from "@/server/api/auth";
import { spendCardWrite } from "@/server/api/card-writes";
import { CardsQuerySchema, NewCardSchema } from "@/server/cards/card-schemas";

export const dynamic = "force-dynamic";

/** Cards, newest first, or with `due=1` the due ones, soonest first; `topic` and `limit` narrow it. */
export function GET(request: Request) {
  return handle(async () => {
    const query = parseBody(CardsQuerySchema, queryOf(request.url));
    return json(await getRuntime().cards.list(query));
  });
}

/** A new card `{front, back, topic?, origin?}`; with the session token (the tutor) it is the tutor's. */
export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const writer = await writerOf(request, runtime);
    const input = parseBody(NewCardSchema, await readJson(request));
    spendCardWrite(request, runtime, writer);
    return json({ card: await runtime.cards.create(input, writer) }, 201);
  });
}
