// Requests the custom server answers itself, after the gate (server/security/http-gate.ts) and before
// Next.js: the state the pages poll, and the early keys' worker script (early-worker-script.ts). Its read is prepared SQL (~0.2 ms); Next's route handling around
// it was ~80% of each request's CPU, which set the p99 under load (docs/performance.md, "State").
// Same answer as app/api/session/state/route.ts, which still serves `next dev`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { toApiError } from "../api/api-error.ts";
import type { Runtime } from "../runtime.ts";
import { EARLY_WORKER_PATH } from "../../common/study/early-worker.ts";
import { serveEarlyWorker } from "./early-worker-script.ts";

export const STATE_PATH = "/api/session/state";

/** The handler for this request, or undefined to hand it to Next. */
export function ownRoute(
  req: IncomingMessage,
  res: ServerResponse,
  runtime: Runtime,
  log: (line: string) => void,
): (() => Promise<void>) | undefined {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD") return undefined;
  const path = (req.url ?? "/").split("?", 1)[0];
  if (path === EARLY_WORKER_PATH) return async () => serveEarlyWorker(res, method === "HEAD");
  if (path !== STATE_PATH) return undefined;
  return () => answer(res, () => runtime.sessions.state(), method === "HEAD", log);
}

async function answer(res: ServerResponse, read: () => Promise<unknown>, headOnly: boolean, log: (line: string) => void): Promise<void> {
  let status = 200;
  let body: unknown;
  try {
    body = await read();
  } catch (error) {
    // As route-helpers.ts handle(): a refusal is its status and sentence, a fault a plain 500, logged.
    const refusal = toApiError(error);
    if (refusal) {
      status = refusal.status;
      body = { error: refusal.message, ...refusal.extra };
      if (status === 503) res.setHeader("retry-after", "5");
    } else {
      log(`Request GET ${STATE_PATH} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      status = 500;
      body = { error: "Something went wrong on the StudyLoop server. Try again; if it keeps happening, see the server's log." };
    }
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.setHeader("cache-control", "no-store");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(headOnly ? undefined : text);
}
