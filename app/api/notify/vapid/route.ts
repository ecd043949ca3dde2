import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

/** The server's public VAPID key: a browser subscribes to Web Push with it. */
export function GET() {
  return handle(async () => json({ publicKey: getRuntime().notify.vapidPublicKey }));
}
