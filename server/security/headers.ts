// Security headers on every response, set before Next or socket.io write theirs.
import type { ServerResponse } from "node:http";

const HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

export function applySecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(HEADERS)) res.setHeader(name, value);
}
