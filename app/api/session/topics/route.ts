import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { TopicMarkSchema, parseBody } from "@/server/api/schemas";
import { writerOf } from "@/server/api/auth";
import { toMarkView } from "@/common/study/study-view";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handle(async () => {
    const runtime = getRuntime();
    const writer = await writerOf(request, runtime);
    const mark = parseBody(TopicMarkSchema, await readJson(request));
    return json({ mark: toMarkView(await runtime.study.mark(mark, writer.source, writer.sessionId)) }, 201);
  });
}
