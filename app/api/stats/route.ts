import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

/** The dashboard's charts: focus per day over 12 weeks, the streak, wins and struggles per topic. */
export function GET() {
  return handle(async () => json(await getRuntime().study.history.stats()));
}
