import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";
import { spendCardWrite } from "@/server/api/card-writes";
import { ReviewSchema } from "@/server/cards/card-schemas";
import { cardId } from "@/server/api/card-id";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** The card's reviews, oldest first: rating, time and the state each produced. */
export function GET(_request: Request, { params }: Params) {
  return handle(async () => json({ reviews: await getRuntime().cards.reviews(cardId((await params).id)) }));
}

/** Answers the card `{rating, reps, durationMs?}`; FSRS sets its next due date. */
export function POST(request: Request, { params }: Params) {
  return handle(async () => {
    const runtime = getRuntime();
    const id = cardId((await params).id);
    const writer = await writerOf(request, runtime);
    const input = parseBody(ReviewSchema, await readJson(request));
    spendCardWrite(request, runtime, writer);
    return json(await runtime.cards.review(id, input), 201);
  });
}
