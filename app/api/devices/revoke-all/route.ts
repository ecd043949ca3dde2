import { getRuntime } from "@/server/runtime";
import { handle, json, readJson } from "@/server/api/route-helpers";
import { RevokeAllSchema, parseBody } from "@/server/api/schemas";
import { DEVICE_HEADER } from "@/server/security/device-header";

export const dynamic = "force-dynamic";

/** Revokes every paired device at once (`keepThisDevice`: all but the asking one); their sockets close. */
export function POST(request: Request) {
  return handle(async () => {
    const { keepThisDevice } = parseBody(RevokeAllSchema, await readJson(request));
    const current = request.headers.get(DEVICE_HEADER) ?? undefined;
    const revoked = await getRuntime().access.revokeAll({ except: keepThisDevice ? current : undefined });
    return json({ revoked });
  });
}
