import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { ParkSchema, parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return handle(async () => {
    const sessionId = new URL(request.url).searchParams.get("session") ?? undefined;
    return json({ items: await getRuntime().study.parked(sessionId) });
  });
}

export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const writer = await writerOf(request, runtime);
    const { text } = parseBody(ParkSchema, await readJson(request));
    return json({ item: await runtime.study.park(text, writer.source, writer.sessionId) }, 201);
  });
}
