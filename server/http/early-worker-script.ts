// The early keys' worker script (common/study/early-worker.ts), served by the server itself: a
// same-origin script, as the CSP's `worker-src 'self'` asks, made once from the function's source.
// Its URL carries a hash of the text (as the page's bundle compiled it: a version key, the server
// ignores the query), so a reloaded page takes it from the browser's cache.
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { EARLY_WORKER_PATH, earlyWorkerSource } from "../../common/study/early-worker.ts";

let script: { text: string; url: string } | undefined;

function made(): { text: string; url: string } {
  if (!script) {
    const text = earlyWorkerSource();
    const hash = createHash("sha256").update(text).digest("base64url").slice(0, 16);
    script = { text, url: `${EARLY_WORKER_PATH}?v=${hash}` };
  }
  return script;
}

/** The worker's URL for a page (with its hash). */
export function earlyWorkerUrl(): string {
  return made().url;
}

export function serveEarlyWorker(res: ServerResponse, headOnly: boolean): void {
  const { text } = made();
  res.statusCode = 200;
  res.setHeader("content-type", "text/javascript; charset=utf-8");
  res.setHeader("cache-control", "public, max-age=31536000, immutable");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(headOnly ? undefined : text);
}
