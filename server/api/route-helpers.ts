// The glue every route handler uses: read a bounded JSON body, turn refusals into a status and a
// sentence, and never leak a stack trace or a path.
import { MAX_JSON_BODY_BYTES } from "../security/body-limits.ts";
import { ApiError, badRequest, toApiError } from "./api-error.ts";

export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) throw new ApiError(415, "Send the request as JSON (Content-Type: application/json).");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) throw new ApiError(413, "The request is too large (64 KB at most).");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) throw new ApiError(413, "The request is too large (64 KB at most).");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw badRequest("The request body must be a JSON object.");
  return body;
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

/** Runs a handler; refusals become their status, faults a plain 500 with the cause logged. */
export async function handle(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (error) {
    const refusal = toApiError(error);
    if (refusal) {
      if (refusal.status === 503)
        console.error("[studyloop] request refused:", refusal.message, (error as { cause?: unknown }).cause ?? error);
      const response = json({ error: refusal.message, ...refusal.extra }, refusal.status);
      if (refusal.status === 503) response.headers.set("retry-after", "5");
      return response;
    }
    console.error("[studyloop] request failed:", error);
    return json({ error: "Something went wrong on the StudyLoop server. Try again; if it keeps happening, see the server's log." }, 500);
  }
}
