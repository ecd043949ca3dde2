// The browser's side of /api/cards: JSON in, the server's sentence out on a refusal.
import type { CardView } from "@/server/cards/card-view";

export type Answer<T> = { ok: true; data: T } | { ok: false; error: string; status: number };

const UNREACHABLE = {
  ok: false,
  status: 0,
  error: "Could not reach the StudyLoop server: check the connection and try again.",
} as const;

export async function callCards<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  try {
    const res = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: "no-store",
    });
    const data = (await res.json().catch(() => undefined)) as (T & { error?: string }) | undefined;
    // A 2xx whose body did not arrive whole (the server stopped mid-answer) is not an answer.
    if (res.ok) return data === undefined ? UNREACHABLE : { ok: true, data };
    return { ok: false, status: res.status, error: data?.error ?? `The server refused (HTTP ${res.status}). Try again.` };
  } catch {
    return UNREACHABLE;
  }
}

export function dueCards(topic: string | undefined, limit: number): Promise<Answer<{ cards: CardView[]; dueCount: number }>> {
  const query = new URLSearchParams({ due: "1", limit: String(limit), ...(topic ? { topic } : {}) });
  return callCards(`/api/cards?${query}`);
}
