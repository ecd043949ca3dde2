import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

export function POST() {
  return handle(async () => json({ session: await getRuntime().sessions.end("ended-by-learner") }));
}
