import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";
import { ApiError } from "@/server/api/api-error";
import { spendCardWrite } from "@/server/api/card-writes";
import { EditCardSchema } from "@/server/cards/card-schemas";
import { cardId } from "@/server/api/card-id";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export function GET(_request: Request, { params }: Params) {
  return handle(async () => json({ card: await getRuntime().cards.get(cardId((await params).id)) }));
}

/** Edits the front, back or topic; the scheduling stays. */
export function PATCH(request: Request, { params }: Params) {
  return handle(async () => {
    const runtime = getRuntime();
    const id = cardId((await params).id);
    const writer = await writerOf(request, runtime);
    const patch = parseBody(EditCardSchema, await readJson(request));
    spendCardWrite(request, runtime, writer);
    return json({ card: await runtime.cards.edit(id, patch) });
  });
}

export function DELETE(request: Request, { params }: Params) {
  return handle(async () => {
    const runtime = getRuntime();
    const id = cardId((await params).id);
    const writer = await writerOf(request, runtime);
    if (writer.source === "agent") throw new ApiError(403, "The tutor cannot delete cards: the learner can, on the topic's page.");
    spendCardWrite(request, runtime, writer);
    await runtime.cards.remove(id);
    return json({ deleted: id });
  });
}
