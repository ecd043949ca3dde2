// The due cards of a topic (or of all topics) and how many are due in all, from /api/cards.
import type { CardView } from "@/server/cards/card-view";
import { callApi, type ApiAnswer } from "../components/api-client";

export function dueCards(topic: string | undefined, limit: number): Promise<ApiAnswer<{ cards: CardView[]; dueCount: number }>> {
  const query = new URLSearchParams({ due: "1", limit: String(limit), ...(topic ? { topic } : {}) });
  return callApi(`/api/cards?${query}`, { cache: "no-store" });
}
