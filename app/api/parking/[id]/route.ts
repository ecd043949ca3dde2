import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { ParkingPatchSchema, parseBody } from "@/server/api/schemas";
import { toParkedView } from "@/common/study/study-view";

export const dynamic = "force-dynamic";

export function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const { status, text } = parseBody(ParkingPatchSchema, await readJson(request));
    const study = getRuntime().study;
    let item = text !== undefined ? await study.edits.editParked(id, text) : undefined;
    if (status !== undefined) item = await study.setParkedStatus(id, status);
    // The schema asks for at least one of the two.
    return json({ item: toParkedView(item!) });
  });
}

/** Takes a parked thought back (it is deleted). */
export function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    await getRuntime().study.edits.removeParked(id);
    return json({ removed: id });
  });
}
