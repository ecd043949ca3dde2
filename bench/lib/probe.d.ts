// What bench/lib/probe.js records in the page (see its header).
interface BenchMark {
  name: string;
  parsedAt: number;
  wall: number;
  renderedAt: number | null;
  /** bench.starved.ms when this mark was parsed. */
  starvedMs: number;
}
interface BenchTerminal {
  cols: number;
  rows: number;
  focus(): void;
  input(data: string, wasUserInput?: boolean): void;
  buffer: {
    active: {
      cursorX: number;
      cursorY: number;
      baseY: number;
      length: number;
      type: string;
      getLine(y: number): { translateToString(trimRight?: boolean): string } | undefined;
    };
    normal: { length: number };
  };
}
interface BenchProbe {
  term: BenchTerminal | null;
  marks: BenchMark[];
  echo: { t0: number; parsedAt: number | null; renderedAt: number | null } | null;
  ctrlc: { t0: number } | null;
  /** `written`: what the terminal was given until the restore was parsed (the snapshot, in pieces). */
  restore: { parsedAt: number; renderedAt: number | null; lines: number; written: number } | null;
  writes: { max: number; maxBytes: number; count: number; total: number };
  /** Time xterm had parsed all it was given and waited for more (`since`: when the current wait began, or null). */
  starved: { ms: number; waits: number; pending: number; since: number | null };
  attachSentAt: number | null;
  /** When the server acknowledged the page's attach: typing reaches the agent from then on. */
  attachAckAt: number | null;
  /** When the terminal rendered its first frame: it is on the page, typing can go to it. */
  openedAt: number | null;
  /** Bytes (and messages) received over WebSockets from the attach request to the restore parsed. */
  wire: { bytes: number; messages: number };
  /** When the server-rendered screen was painted, and whether it showed the text waited for. */
  previewPaint: { at: number; hasText: boolean } | null;
}
interface Window {
  __bench: BenchProbe;
  __benchRestore?: { minLines: number; text: string };
}
