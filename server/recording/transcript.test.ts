import { describe, expect, it } from "vitest";
import type { CastEvent } from "./asciicast.ts";
import { TranscriptBuilder, TranscriptLimits, transcriptText, type TranscriptSegment } from "./transcript.ts";

const out = (time: number, data: string): CastEvent => ({ time, code: "o", data });

async function derive(events: CastEvent[], cols = 40, rows = 6): Promise<TranscriptSegment[]> {
  const builder = new TranscriptBuilder(cols, rows);
  await builder.feed(events);
  return [...builder.take(), ...builder.finish()];
}

describe("TranscriptBuilder", () => {
  it("keeps what `clear` erased, once, at the time it was last shown", async () => {
    const segments = await derive([
      out(1, "$ echo closures\r\nclosures\r\n$ "),
      out(2, "clear\r\n"),
      out(3, "\x1b[H\x1b[2J\x1b[3J$ "),
      out(4, "echo after\r\nafter\r\n$ "),
    ]);
    const text = transcriptText(segments);
    expect(text).toBe("$ echo closures\nclosures\n$ clear\n$ echo after\nafter\n$\n");
    expect(segments[0]).toEqual({ atMs: 2000, kind: "lines", text: "$ echo closures\nclosures\n$ clear" });
  });

  it("keeps lines that scrolled off, in order, without duplicates", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${i + 1}`);
    const events = [out(0.5, "$ seq 5000\r\n")];
    // In chunks that cut lines in half, as a pty does.
    const all = lines.join("\r\n") + "\r\n$ ";
    for (let at = 0, t = 1; at < all.length; at += 997, t++) events.push(out(t, all.slice(at, at + 997)));
    const text = transcriptText(await derive(events));
    expect(text).toBe(`$ seq 5000\n${lines.join("\n")}\n$\n`);
  });

  it("writes down each full screen when it is left or redrawn, not the drawing of it", async () => {
    const segments = await derive([
      out(1, "$ vim notes.txt\r\n"),
      out(2, "\x1b[?1049h\x1b[H\x1b[2Jfirst screen\r\n~\r\n~"),
      out(3, "\x1b[H\x1b[2Jsecond screen\r\n~"),
      out(4, "\x1b[?1049l$ "),
    ]);
    expect(segments.filter((s) => s.kind === "screen")).toEqual([
      { atMs: 2000, kind: "screen", text: "first screen\n~\n~" },
      { atMs: 3000, kind: "screen", text: "second screen\n~" },
    ]);
    expect(transcriptText(segments)).toContain("$ vim notes.txt\n$");
  });

  it("joins wrapped rows into one line and follows resizes", async () => {
    const segments = await derive([out(1, "x".repeat(50) + "\r\n"), { time: 2, code: "r", data: "20x6" }, out(3, "y".repeat(30) + "\r\n")]);
    const text = transcriptText(segments);
    expect(text).toContain("x".repeat(50));
    expect(text).toContain("y".repeat(30));
  });

  it("keeps a long coloured flood exact: no escape sequence is cut into text, and the scrollback stays full, not growing", async () => {
    // Coloured lines whose sequences straddle the builder's pieces, far more lines than its scrollback holds.
    const count = TranscriptLimits.SCROLLBACK * 3;
    const lines = Array.from({ length: count }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m\x1b[s\x1b[30G#\x1b[u\x1b[2C\x1b[1D end`);
    const all = lines.join("\r\n") + "\r\n";
    const events: CastEvent[] = [];
    for (let at = 0, t = 1; at < all.length; at += 4093, t++) events.push(out(t, all.slice(at, at + 4093)));
    const builder = new TranscriptBuilder(40, 6);
    await builder.feed(events);
    // The replay terminal holds at most its screen and SCROLLBACK lines: the oldest are recycled.
    const internals = builder as unknown as { term: { buffer: { normal: { length: number } } } };
    expect(internals.term.buffer.normal.length).toBe(6 + TranscriptLimits.SCROLLBACK);
    const text = transcriptText([...builder.take(), ...builder.finish()]);
    // "line i", an empty cell, " end" (restored cursor, 2 right, 1 left), then "#" drawn at column 30.
    const expected = Array.from({ length: count }, (_, i) => `line ${i}  end`.padEnd(29) + "#");
    expect(text).toBe(expected.join("\n") + "\n");
  });

  it("keeps the lines printed after a terminal reset (RIS)", async () => {
    const before = Array.from({ length: 30 }, (_, i) => `before ${i}`);
    const after = Array.from({ length: 30 }, (_, i) => `after ${i}`);
    const text = transcriptText(
      await derive([out(1, before.join("\r\n") + "\r\n"), out(2, "\x1bc"), out(3, after.join("\r\n") + "\r\n$ ")]),
    );
    expect(text).toBe(`${before.join("\n")}\n${after.join("\n")}\n$\n`);
  });

  it("writes a wrapped line down whole, wherever the output's pieces end", async () => {
    // 130-char lines wrap over four rows of 40; the pieces end anywhere, often with a line half off the screen.
    const lines = Array.from({ length: 300 }, (_, i) => `${i}:`.padEnd(130, String.fromCharCode(97 + (i % 26))));
    const all = lines.join("\r\n") + "\r\n$ ";
    const events: CastEvent[] = [];
    for (let at = 0, t = 1; at < all.length; at += 97, t++) events.push(out(t, all.slice(at, at + 97)));
    expect(transcriptText(await derive(events))).toBe(`${lines.join("\n")}\n$\n`);
  });

  it("writes a held-back wrapped line down once when `clear` erases the screen under it", async () => {
    // Eight rows of 40: when `clear` comes, its first two have scrolled off and the rest are on screen.
    const long = "w".repeat(300);
    const segments = await derive([out(1, `a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\n${long}`), out(2, "\x1b[H\x1b[2J$ after")]);
    expect(transcriptText(segments)).toBe(`a\nb\nc\nd\ne\nf\ng\n${long}\n$ after\n`);
  });

  it("loses no held-back row when the terminal is resized under a full-screen program", async () => {
    const long = "w".repeat(300); // its first two rows of 40 have scrolled off when vim starts
    const segments = await derive([
      out(1, `a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\n${long}`),
      out(2, "\x1b[?1049h\x1b[Hvim"),
      { time: 3, code: "r", data: "30x6" },
      out(4, "\x1b[?1049l\r\n$ "),
    ]);
    const text = transcriptText(segments);
    // The two rows that had scrolled off are written down before the resize reflows them.
    expect(text.startsWith(`a\nb\nc\nd\ne\nf\ng\n${"w".repeat(80)}\n`)).toBe(true);
  });

  it("holds back no more than one piece's worth of rows can push out", () => {
    expect(TranscriptLimits.WRITE_CHARS + TranscriptLimits.HELD_ROWS).toBeLessThanOrEqual(TranscriptLimits.SCROLLBACK);
  });
});
