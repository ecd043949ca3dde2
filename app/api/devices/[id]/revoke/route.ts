import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";
import { notFound } from "@/server/api/api-error";

export const dynamic = "force-dynamic";

/** Revokes a device: its cookie stops working and its open sockets close at once. */
export function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async () => {
    const { id } = await params;
    const device = /^[0-9a-f-]{36}$/.test(id) ? await getRuntime().access.revoke(id) : undefined;
    if (!device) throw notFound(`Could not find device ${id.slice(0, 40)}: it may have been removed already.`);
    return json({ device });
  });
}
