import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { ParkSchema, parseBody } from "@/server/api/schemas";
import { ParkingQuerySchema, queryOf } from "@/server/api/study-schemas";
import { writerOf } from "@/server/api/auth";
import { toParkedView } from "@/common/study/study-view";

export const dynamic = "force-dynamic";

/** The parking lot, newest first; `session` and `status` narrow it. */
export function GET(request: Request) {
  return handle(async () => {
    const { session, status } = parseBody(ParkingQuerySchema, queryOf(request.url));
    return json({ items: await getRuntime().study.parkingLot({ sessionId: session, status }) });
  });
}

/** Parks `{text}` into the live session; with the session token as a Bearer token, as from the agent. */
export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const writer = await writerOf(request, runtime);
    const { text } = parseBody(ParkSchema, await readJson(request));
    return json({ item: toParkedView(await runtime.study.park(text, writer.source, writer.sessionId)) }, 201);
  });
}
