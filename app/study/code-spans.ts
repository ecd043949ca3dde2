// Text with `code` in backticks, as agents and StudyLoop's hints write commands, split into plain and
// code parts so a page can show commands as code. A backtick without its pair stays as it is. Pure.
export interface TextPart {
  readonly text: string;
  readonly code: boolean;
}

export function codeSpans(text: string): TextPart[] {
  const pieces = text.split("`");
  // An even number of pieces means an odd number of backticks: the last one has no pair.
  const unpaired = pieces.length % 2 === 0 ? pieces.splice(-2).join("`") : undefined;
  const parts: TextPart[] = pieces.map((piece, i) => ({ text: piece, code: i % 2 === 1 }));
  if (unpaired !== undefined) parts.push({ text: unpaired, code: false });
  return merge(parts.filter((p) => p.text !== "" || p.code));
}

/** Neighbouring plain parts are one (an unpaired backtick's text joins the text before it). */
function merge(parts: TextPart[]): TextPart[] {
  const out: TextPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last && !last.code && !part.code) out[out.length - 1] = { text: last.text + part.text, code: false };
    else out.push(part);
  }
  return out;
}
