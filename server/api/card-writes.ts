// Card routes' write budget: one count per client (a paired device, a tutor's session, or this
// machine), refused with 429 and a sentence past it (server/cards/write-budget.ts).
import type { Runtime } from "../runtime.ts";
import { DEVICE_HEADER } from "../security/device-header.ts";
import { ApiError } from "./api-error.ts";
import type { Writer } from "./auth.ts";

export function spendCardWrite(request: Request, runtime: Runtime, writer: Writer): void {
  const client = writer.source === "agent" ? `session:${writer.sessionId}` : `device:${request.headers.get(DEVICE_HEADER) ?? "local"}`;
  const waitMs = runtime.cards.writes.take(client);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new ApiError(
      429,
      `Too many card changes in a short time: wait ${seconds} second${seconds === 1 ? "" : "s"} and try again. Nothing was written.`,
      {
        retryAfterSeconds: seconds,
      },
    );
  }
}
