// POST a photo or file for the next chat message: the raw bytes as the body, `?name=` the learner's
// file name. Checked by its bytes, against what the agent accepts and against the attachment quota
// (attachment-quota.ts), then stored in the session folder.
import path from "node:path";
import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { ApiError, badRequest, conflict, notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";
import { sessionsDir } from "@/server/config/paths";
import { ATTACHMENT_LIMITS, detectType, refusal, storeAttachment, type PromptSupport } from "@/server/transports/acp/attachments";
import { attachmentUsage, oneUploadAtATime, quotaLimits, quotaRefusal } from "@/server/transports/acp/attachment-quota";
import { attachmentUrl } from "@/app/components/markdown";

export const dynamic = "force-dynamic";

export function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    if (!SESSION_ID.test(id)) throw notFound(`There is no session ${id}.`);
    const runtime = getRuntime();
    const { session } = await runtime.sessions.state();
    if (!session || session.id !== id || session.status !== "live" || session.transport !== "acp") {
      throw conflict("Files can be attached only to the chat that is running now.");
    }
    const support = await promptSupport(id);
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > ATTACHMENT_LIMITS.MAX_BYTES) throw new ApiError(413, refusal(declared, null, support)!);
    const root = sessionsDir(runtime.dataDir);
    const limits = quotaLimits(runtime.settings);
    // A file that cannot fit is refused before its body is read.
    const full = quotaRefusal(attachmentUsage(root, id), declared, limits);
    if (full) throw new ApiError(507, full);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const type = detectType(bytes);
    const problem = refusal(bytes.length, type, support);
    if (problem) throw new ApiError(bytes.length > ATTACHMENT_LIMITS.MAX_BYTES ? 413 : 415, problem);
    const original = new URL(request.url).searchParams.get("name") ?? "";
    if (original.length > 200) throw badRequest("The file's name is too long (200 characters at most).");
    const stored = await oneUploadAtATime(() => {
      const over = quotaRefusal(attachmentUsage(root, id), bytes.length, limits);
      if (over) throw new ApiError(507, over);
      return storeAttachment(path.join(root, id), original, bytes, type!);
    });
    return json({ ...stored, url: attachmentUrl(id, stored.name) }, 201);
  });
}

/** What the agent said it accepts, from the agent_info event it recorded at the start. */
async function promptSupport(id: string): Promise<PromptSupport> {
  const events = await getRuntime().sessions.acpEvents(id, 0);
  const info = events.find((e) => e.kind === "agent_info")?.payload as { prompt?: Partial<PromptSupport> } | undefined;
  return { image: info?.prompt?.image === true, embeddedContext: info?.prompt?.embeddedContext === true };
}
