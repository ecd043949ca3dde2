import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { DEVICE_HEADER } from "@/server/security/device-header";

export const dynamic = "force-dynamic";

/** Whether this client may use StudyLoop: the gate answers 401 before this runs when it may not. */
export function GET(request: Request) {
  return handle(async () => json({ pairingRequired: getRuntime().access.requirePairing, device: request.headers.get(DEVICE_HEADER) }));
}
