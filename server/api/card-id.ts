import { notFound } from "./api-error.ts";

/** A card id from the path, or 404 (anything else cannot name a card). */
export function cardId(raw: string): string {
  if (!/^[0-9a-f-]{36}$/.test(raw)) throw notFound("There is no such card: check the address.");
  return raw;
}
