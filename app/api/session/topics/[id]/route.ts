import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { TopicMarkPatchSchema, parseBody } from "@/server/api/schemas";
import { toMarkView } from "@/common/study/study-view";

export const dynamic = "force-dynamic";

/** Corrects a topic mark of the live session. */
export function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const change = parseBody(TopicMarkPatchSchema, await readJson(request));
    return json({ mark: toMarkView(await getRuntime().study.edits.editMark(id, change)) });
  });
}

/** Takes a topic mark of the live session back (it is deleted; the session's counts follow). */
export function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    await getRuntime().study.edits.removeMark(id);
    return json({ removed: id });
  });
}
