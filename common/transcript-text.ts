// A transcript's pieces and how they read as plain text, and a marker as a chapter title. Pure and
// browser-safe (the session page shows them; the download is this text).

export type SegmentKind = "lines" | "screen";

export interface TranscriptSegment {
  /** Milliseconds from the recording's start at which the player shows this text. */
  readonly atMs: number;
  /** "lines": text that scrolled by or was cleared away; "screen": a full-screen program's screen. */
  readonly kind: SegmentKind;
  readonly text: string;
}

/** The downloadable plain-text log: stretches in order, full screens set apart with their time. */
export function transcriptText(segments: readonly TranscriptSegment[]): string {
  const parts: string[] = [];
  for (const s of segments) {
    if (s.kind === "screen") parts.push(`── full screen at ${clock(s.atMs)} ──\n${s.text}\n── end of screen ──`);
    else parts.push(s.text);
  }
  return parts.length ? `${parts.join("\n")}\n` : "";
}

/** 12:41 or 1:02:03, from milliseconds. */
export function clock(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** "struggling: recursion · 12:41": a recording's marker as a chapter. */
export function chapterTitle(label: string, seconds: number): string {
  return `${label} · ${clock(seconds * 1000)}`;
}
