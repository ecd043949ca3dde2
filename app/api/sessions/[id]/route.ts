import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";

export const dynamic = "force-dynamic";

/** One session: its summary, marks, parked items and timeline; `?transcript=1` adds the transcript. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const detail = SESSION_ID.test(id) ? await getRuntime().study.history.detail(id) : null;
    if (!detail) throw notFound(`There is no session ${id}.`);
    const withTranscript = new URL(request.url).searchParams.get("transcript") === "1";
    return json({ ...detail, transcript: withTranscript ? detail.transcript : undefined });
  });
}
