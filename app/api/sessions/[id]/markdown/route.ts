import { getRuntime } from "@/server/runtime";
import { handle } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";
import { sessionMarkdown } from "@/server/recording/export-markdown";
import { chatMessages } from "@/server/recording/chat-messages";
import { transcriptText } from "@/common/transcript-text";

export const dynamic = "force-dynamic";

/** The session as Markdown: summary, marks, parked thoughts and transcript (or the chat). */
export function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const runtime = getRuntime();
    const detail = SESSION_ID.test(id) ? await runtime.study.history.detail(id) : null;
    if (!detail) throw notFound(`There is no session ${id}.`);
    const ended = detail.session.status === "ended";
    const segments = detail.session.transport === "acp" ? null : await runtime.record.transcript(id, ended);
    const events = detail.session.transport === "acp" ? await runtime.sessions.acpEvents(id) : [];
    const chat = chatMessages(events.map((e) => ({ ...e, at: new Date(e.at) })));
    const body = sessionMarkdown({
      session: detail.session,
      marks: detail.marks,
      parked: detail.parked,
      transcript: segments ? transcriptText(segments) : detail.transcript,
      chat,
    });
    return new Response(body, {
      headers: {
        "content-type": "text/markdown; charset=utf-8",
        "cache-control": "no-store",
        "content-disposition": `attachment; filename="studyloop-${id.slice(0, 8)}.md"`,
      },
    });
  });
}
