import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { badRequest, notFound } from "@/server/api/api-error";
import { CLIENT_ID, NotifySettingsSchema, notifyDeviceView } from "@/server/notify/device-store";
import { readNotifyConfig } from "@/server/notify/notify-config";
import { refuseUrl } from "@/server/notify/outbound";

export const dynamic = "force-dynamic";

const missing = (id: string) =>
  notFound(`Could not find notification device ${id.slice(0, 64)}: open StudyLoop on that device once, then try again.`);

/** Changes how one browser is notified: system notifications, sound, a Web Push subscription, an ntfy URL. */
export function PUT(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    if (!CLIENT_ID.test(id)) throw missing(id);
    const parsed = NotifySettingsSchema.safeParse(await readJson(request));
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "These notification settings are not valid.");
    // An address that can be judged now (a literal IP, a metadata name) is refused now; a name is
    // judged again where it is connected to, at each send (server/notify/outbound.ts).
    const allowHosts = readNotifyConfig(getRuntime().dataDir).allowHosts;
    for (const url of [parsed.data.ntfyUrl, parsed.data.push?.endpoint]) {
      const refused = url ? refuseUrl(url, allowHosts) : null;
      if (refused) throw badRequest(`${refused[0]!.toUpperCase()}${refused.slice(1)}`);
    }
    const row = await getRuntime().notify.devices.update(id, parsed.data);
    if (!row) throw missing(id);
    return json({ device: notifyDeviceView(row) });
  });
}

/** Forgets a browser's notification settings (it is set up again the next time it opens StudyLoop). */
export function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    if (!CLIENT_ID.test(id) || !(await getRuntime().notify.devices.remove(id))) throw missing(id);
    return json({ removed: id });
  });
}
