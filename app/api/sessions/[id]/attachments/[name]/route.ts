// GET one of a session's attachments (a photo the learner sent), for the chat and the transcript.
import path from "node:path";
import { getRuntime } from "@/server/runtime";
import { handle } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";
import { sessionsDir } from "@/server/config/paths";
import { readAttachment } from "@/server/transports/acp/attachments";
import { ATTACHMENT_CSP } from "@/server/security/attachment-policy";

export const dynamic = "force-dynamic";

export function GET(_request: Request, { params }: { params: Promise<{ id: string; name: string }> }) {
  return handle(async () => {
    const { id, name } = await params;
    const found = SESSION_ID.test(id) ? readAttachment(path.join(sessionsDir(getRuntime().dataDir), id), name) : null;
    if (!found) throw notFound(`There is no attachment ${name} in this session.`);
    const { stored, bytes } = found;
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": stored.mimeType,
        "content-length": String(bytes.length),
        // Images show in the page; anything else downloads and never runs as a page of ours.
        "content-disposition": `${stored.kind === "image" ? "inline" : "attachment"}; filename="${stored.name}"`,
        "x-content-type-options": "nosniff",
        "content-security-policy": ATTACHMENT_CSP,
        "cache-control": "private, max-age=3600",
      },
    });
  });
}
