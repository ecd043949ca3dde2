import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { notifyDeviceView } from "@/server/notify/device-store";

export const dynamic = "force-dynamic";

/** Every browser that gets notifications, with its delivery choices (never its push keys). */
export function GET() {
  return handle(async () => {
    const rows = await getRuntime().notify.devices.all();
    return json({ devices: rows.map(notifyDeviceView) });
  });
}
