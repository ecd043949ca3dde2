import { getRuntime } from "@/server/runtime";
import { handle } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { queryOf } from "@/server/api/study-schemas";
import { ExportQuerySchema } from "@/server/cards/card-schemas";

export const dynamic = "force-dynamic";

/** The cards (one topic, or all) as a file for Anki's File > Import (docs/cards.md). */
export function GET(request: Request) {
  return handle(async () => {
    const { topic } = parseBody(ExportQuerySchema, queryOf(request.url));
    const { text } = await getRuntime().cards.exportAnki(topic);
    const name = `studyloop-${
      topic
        ? topic
            .replace(/[^\w-]+/g, "-")
            .replace(/^-+|-+$/g, "")
            .slice(0, 60) || "cards"
        : "cards"
    }.txt`;
    return new Response(text, {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      },
    });
  });
}
