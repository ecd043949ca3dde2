import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { DEVICE_HEADER } from "@/server/security/device-header";

export const dynamic = "force-dynamic";

/** The paired devices, newest first, revoked ones last; `current` is the asking device. */
export function GET(request: Request) {
  return handle(async () => {
    const { access } = getRuntime();
    return json({ pairingRequired: access.requirePairing, current: request.headers.get(DEVICE_HEADER), devices: await access.list() });
  });
}
