// A simple CSV of cards, one per line: front,back[,topic]. A first line "front,back[,topic]" is a
// header and skipped. Pure: parsing and checking only; every line must pass or nothing is imported.
import { parse } from "csv-parse/sync";
import { CARD_SIDE_MAX_CHARS, IMPORT_MAX_CARDS, topicField } from "./card-schemas.ts";

export interface ImportedCard {
  readonly front: string;
  readonly back: string;
  readonly topic: string;
}

export type CsvOutcome = { ok: true; cards: ImportedCard[] } | { ok: false; reason: string };

export function parseCardsCsv(text: string, defaultTopic?: string): CsvOutcome {
  let rows: string[][];
  try {
    rows = parse(text.replace(/^\uFEFF/, ""), { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { ok: false, reason: `The CSV could not be read${line ? ` (line ${line})` : ""}: check its quotes. Nothing was imported.` };
  }
  const header = rows[0]?.map((c) => c.toLowerCase());
  if (header && header[0] === "front" && header[1] === "back") rows = rows.slice(1);
  if (rows.length === 0)
    return { ok: false, reason: "The CSV has no cards: put one card per line, front,back[,topic]. Nothing was imported." };
  if (rows.length > IMPORT_MAX_CARDS) {
    return { ok: false, reason: `The CSV has ${rows.length} cards; import at most ${IMPORT_MAX_CARDS} at a time. Nothing was imported.` };
  }
  const cards: ImportedCard[] = [];
  for (const [i, row] of rows.entries()) {
    const line = `Card ${i + 1} (“${(row[0] ?? "").slice(0, 40)}”)`;
    const nothing = "Nothing was imported.";
    if (row.length < 2 || row.length > 3)
      return {
        ok: false,
        reason: `${line} has ${row.length} column${row.length === 1 ? "" : "s"}; write front,back or front,back,topic. ${nothing}`,
      };
    const [front, back, topic] = row as [string, string, string?];
    if (!front || !back) return { ok: false, reason: `${line} has an empty ${front ? "back" : "front"}. ${nothing}` };
    if (front.length > CARD_SIDE_MAX_CHARS || back.length > CARD_SIDE_MAX_CHARS) {
      return { ok: false, reason: `${line} is too long: each side at most ${CARD_SIDE_MAX_CHARS} characters. ${nothing}` };
    }
    const checked = topicField.safeParse(topic || defaultTopic || "");
    if (!checked.success)
      return { ok: false, reason: `${line} has no topic: add a third column or choose a topic for the import. ${nothing}` };
    cards.push({ front, back, topic: checked.data });
  }
  return { ok: true, cards };
}
