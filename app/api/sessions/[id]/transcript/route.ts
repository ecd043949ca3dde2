import { getRuntime } from "@/server/runtime";
import { handle } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";
import { transcriptText } from "@/common/transcript-text";

export const dynamic = "force-dynamic";

/** The session's text transcript, derived from its recording, as a plain-text download. */
export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const runtime = getRuntime();
    const found = SESSION_ID.test(id) ? await runtime.sessions.session(id) : null;
    if (!found) throw notFound(`There is no session ${id}.`);
    const segments = await runtime.record.transcript(id, found.view.status === "ended");
    if (!segments) throw notFound("This session has no recording to make a transcript from: only terminal sessions are recorded.");
    return new Response(transcriptText(segments), {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        "content-disposition": `attachment; filename="studyloop-${id.slice(0, 8)}-transcript.txt"`,
      },
    });
  });
}
