// The printed table: one row per figure, the three pipelines side by side, ratios and the goal.

export interface Row {
  figure: string;
  ours: number | null;
  wetty: number | null;
  bare: number | null;
  /** How a value is printed. */
  unit: "MB/s" | "ms" | "MB" | "KB" | "req/s" | "x" | "%";
  /** Why a pipeline has no value (printed in place of n/a's footnote). */
  na?: { wetty?: string; bare?: string };
  goal?: { text: string; met: boolean | null };
}

const fmt = (value: number | null, unit: Row["unit"]) => {
  if (value === null || Number.isNaN(value)) return "n/a";
  const digits = unit === "req/s" ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  if (unit === "%") return `${value.toFixed(0)}%`;
  return unit === "x" ? `${value.toFixed(2)}x` : `${value.toFixed(digits)} ${unit}`;
};

const ratio = (a: number | null, b: number | null) => (a === null || b === null || !(b > 0) ? "n/a" : `${(a / b).toFixed(2)}`);

/** A Markdown table (it reads as a table in a terminal too), with the n/a reasons below it. */
export function renderTable(rows: Row[]): string {
  const header = ["figure", "ours", "wetty", "bare", "ours/bare", "ours/wetty", "goal"];
  const body = rows.map((r) => [
    r.figure,
    fmt(r.ours, r.unit),
    fmt(r.wetty, r.unit),
    fmt(r.bare, r.unit),
    ratio(r.ours, r.bare),
    ratio(r.ours, r.wetty),
    r.goal ? `${r.goal.text}${r.goal.met === null ? "" : r.goal.met ? " ✓" : " ✗"}` : "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const out = [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)];
  // One note per reason: which pipelines and which figures (by number) it covers.
  const notes = new Map<string, { who: Set<string>; figures: Set<string> }>();
  for (const r of rows) {
    for (const [who, why] of Object.entries(r.na ?? {})) {
      if (!why) continue;
      const note = notes.get(why) ?? { who: new Set(), figures: new Set() };
      note.who.add(who);
      note.figures.add(r.figure.split(".")[0]!);
      notes.set(why, note);
    }
  }
  if (notes.size) {
    out.push("");
    for (const [why, note] of notes) out.push(`n/a: ${[...note.figures].join(", ")} for ${[...note.who].join(" and ")}: ${why}.`);
  }
  return out.join("\n");
}
