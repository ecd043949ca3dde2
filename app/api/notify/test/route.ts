import { z } from "zod";
import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { badRequest, notFound } from "@/server/api/api-error";
import { CLIENT_ID } from "@/server/notify/device-store";

export const dynamic = "force-dynamic";

const TestSchema = z.object({ device: z.string().regex(CLIENT_ID) }).strict();

/** "Send a test notification": to one device, through every channel it has, even while looked at. */
export function POST(request: Request) {
  return handle(async () => {
    const parsed = TestSchema.safeParse(await readJson(request));
    if (!parsed.success) throw badRequest("Say which device to send the test to.");
    const sent = await getRuntime().notify.test(parsed.data.device);
    if (!sent)
      throw notFound("That device has no way to be notified yet: open StudyLoop on it, or give it a push subscription or an ntfy address.");
    const channels = sent.deliveries.flatMap((d) => [...(d.page ? ["page"] : []), ...(d.alert ? [d.alert] : [])]);
    return json({ sent: channels });
  });
}
