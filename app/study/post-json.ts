// POST from the study page: the server's answer, or the sentence to show when it refused or was away.
const UNREACHABLE = "Could not reach the StudyLoop server. Is it still running? Try again in a moment.";

/** POSTs JSON: the answer's body when it worked, else the sentence to show. Never throws (the server may be away). */
export async function post(url: string, body?: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  try {
    const res = await fetch(url, {
      method: "POST",
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    const value: unknown = await res.json().catch(() => ({}));
    if (res.ok) return { ok: true, value };
    return { ok: false, error: (value as { error?: string }).error ?? `The server refused (HTTP ${res.status}).` };
  } catch {
    return { ok: false, error: UNREACHABLE };
  }
}
