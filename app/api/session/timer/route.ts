import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { parseBody } from "@/server/api/schemas";
import { TimerActionSchema } from "@/server/api/study-schemas";

export const dynamic = "force-dynamic";

/** Pause or resume the live session's focus timer, or answer its break nudge ("break" or "continue"). */
export function POST(request: Request) {
  return handle(async () => {
    const command = parseBody(TimerActionSchema, await readJson(request));
    return json({ session: await getRuntime().study.timer.apply(command) });
  });
}
