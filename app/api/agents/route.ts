import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

export function GET() {
  return handle(async () => json({ agents: getRuntime().agents.list(), configProblem: getRuntime().agents.configProblem() }));
}
