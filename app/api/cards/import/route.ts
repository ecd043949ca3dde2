import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";
import { ApiError } from "@/server/api/api-error";
import { spendCardWrite } from "@/server/api/card-writes";
import { ImportSchema } from "@/server/cards/card-schemas";

export const dynamic = "force-dynamic";

/** Imports `{csv, topic?}`: every line front,back[,topic], all or nothing. */
export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const writer = await writerOf(request, runtime);
    if (writer.source === "agent") throw new ApiError(403, "The tutor adds cards one at a time with `studyloop card`.");
    const { csv, topic } = parseBody(ImportSchema, await readJson(request));
    spendCardWrite(request, runtime, writer);
    return json(await runtime.cards.importCsv(csv, topic), 201);
  });
}
