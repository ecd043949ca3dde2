import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

/** Fresh one-time pairing links with their QR codes (only a paired device, or this machine, gets here). */
export function POST(request: Request) {
  return handle(async () => json(await getRuntime().access.freshPairing(request.headers.get("host") ?? undefined), 201));
}
