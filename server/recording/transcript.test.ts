import { describe, expect, it } from "vitest";
import type { CastEvent } from "./asciicast.ts";
import { TranscriptBuilder, transcriptText, type TranscriptSegment } from "./transcript.ts";

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
});
