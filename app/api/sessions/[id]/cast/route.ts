import fs from "node:fs";
import { Readable } from "node:stream";
import { getRuntime } from "@/server/runtime";
import { handle } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";
import { SESSION_ID } from "@/server/api/study-schemas";
import { wholeLinesLength } from "@/server/recording/record-files";

export const dynamic = "force-dynamic";

/** The session's recording (asciicast v2): for the player, or as a download with `?download=1`. */
export function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const file = SESSION_ID.test(id) ? await getRuntime().record.castFile(id) : null;
    if (!file) throw notFound("This session has no recording: only terminal sessions are recorded.");
    // Whole lines only: a recording still being written (or cut by a crash) may end mid-line. Streamed:
    // a flood's recording is tens of MB.
    const length = await wholeLinesLength(file);
    const body =
      length === 0 ? "" : (Readable.toWeb(fs.createReadStream(file, { start: 0, end: length - 1 })) as ReadableStream<Uint8Array>);
    const download = new URL(request.url).searchParams.get("download") === "1";
    return new Response(body, {
      headers: {
        "content-type": "application/x-asciicast; charset=utf-8",
        "cache-control": "no-store",
        "content-length": String(length),
        ...(download ? { "content-disposition": `attachment; filename="studyloop-${id.slice(0, 8)}.cast"` } : {}),
      },
    });
  });
}
