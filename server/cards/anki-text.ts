// Cards as Anki's text import format (File > Import in Anki 2.1.55+: https://docs.ankiweb.net/importing/text-files.html).
// Pure. The file's header lines tell Anki everything, so importing needs no choices:
//   #separator:tab        fields are separated by tabs
//   #html:true            fields are HTML: we escape <, >, & and write line breaks as <br>
//   #notetype:Basic       Anki's built-in front/back note type
//   #guid column:1        the card's id, so importing the file again updates rather than duplicates
//   #deck column:4        one deck per topic, "StudyLoop::<topic>"
//   #tags column:5        tags "studyloop" and the topic (spaces become underscores)
// A field that holds a tab or a double quote is wrapped in double quotes, inner quotes doubled.
// The scheduling is left to Anki: the cards arrive as new cards there.

export interface AnkiCard {
  readonly id: string;
  readonly front: string;
  readonly back: string;
  readonly topic: string;
}

export const ANKI_DECK_ROOT = "StudyLoop";

export const ANKI_HEADER = [
  "#separator:tab",
  "#html:true",
  "#notetype:Basic",
  "#guid column:1",
  "#deck column:4",
  "#tags column:5",
  "#columns:GUID\tFront\tBack\tDeck\tTags",
];

export function toAnkiText(cards: readonly AnkiCard[]): string {
  const rows = cards.map((c) => [c.id, toHtml(c.front), toHtml(c.back), deckOf(c.topic), tagsOf(c.topic)].map(field).join("\t"));
  return `${[...ANKI_HEADER, ...rows].join("\n")}\n`;
}

export function deckOf(topic: string): string {
  return `${ANKI_DECK_ROOT}::${topic.replace(/\s+/g, " ").trim()}`;
}

export function tagsOf(topic: string): string {
  const tag = topic.trim().replace(/\s+/g, "_").replace(/["]/g, "");
  return tag ? `studyloop ${tag}` : "studyloop";
}

/** Text to Anki's HTML field: escaped, line breaks as <br>. */
export function toHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/\r\n|\r|\n/g, "<br>");
}

/** The inverse of toHtml, for reading a file back. */
export function fromHtml(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

function field(value: string): string {
  // A leading "#" is quoted too, so no card line can be mistaken for a header line.
  return /[\t"]/.test(value) || value.startsWith("#") ? `"${value.replaceAll('"', '""')}"` : value;
}
