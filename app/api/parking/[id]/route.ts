import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { ParkingPatchSchema, parseBody } from "@/server/api/schemas";
import { toParkedView } from "@/server/study/study-view";

export const dynamic = "force-dynamic";

export function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const { status } = parseBody(ParkingPatchSchema, await readJson(request));
    return json({ item: toParkedView(await getRuntime().study.setParkedStatus(id, status)) });
  });
}
