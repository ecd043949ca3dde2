// The agent's last lines, as the ended session shows them: readable text from the mirror's
// serialized screen, with real agents' output (fixtures recorded from the real CLIs, offline).
import { describe, expect, it } from "vitest";
import { feedMirror, loadRecordings } from "./pty/fidelity-support.ts";
import { TerminalMirror } from "./pty/terminal-mirror.ts";
import { tailLines } from "./live-transport.ts";

describe("tailLines", () => {
  it.each([
    ["plain lines, blank ones left out", "one\r\n\r\ntwo\r\n", ["one", "two"]],
    ["colours removed", "\x1b[31mred\x1b[0m text", ["red text"]],
    ["blank cells between words (CSI C) as spaces", "Unable\x1b[1Cto\x1b[3Cconnect\x1b[Cnow", ["Unable to   connect now"]],
    ["cursor save and restore (ESC 7, ESC 8) and charsets removed whole", "countries\x1b7\x1b[0m\x1b8\x1b(B done", ["countries done"]],
    ["OSC titles and links removed", "\x1b]0;title\x07see \x1b]8;;https://x.test\x1b\\here\x1b]8;;\x1b\\", ["see here"]],
    ["cursor moves after the text removed", "last line\x1b[1B\x1b[55D\x1b[11;1H\x1b[?25h", ["last line"]],
    ["at most `count`, the last ones", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj", ["c", "d", "e", "f", "g", "h", "i", "j"]],
    ["nothing", null, []],
  ])("%s", (_, transcript, expected) => {
    expect(tailLines(transcript)).toEqual(expected);
  });

  it("cuts a long line at 200 chars", () => {
    expect(tailLines("x".repeat(500))).toEqual([`${"x".repeat(199)}…`]);
  });

  it("reads Claude Code's screen (each word placed by a cursor move) as words, through the real mirror", async () => {
    const claude = loadRecordings().find((r) => r.name === "claude");
    expect(claude, "the claude fixture (server/transports/pty/fixtures/recordings)").toBeDefined();
    const mirror = new TerminalMirror(claude!.cols, claude!.rows);
    try {
      for (const event of claude!.events) feedMirror(mirror, event);
      const transcript = (await mirror.snapshot({ excludeModes: true })).data;
      expect(transcript).toMatch(/\x1b\[\d*C/); // the serialized screen writes blank cells as cursor moves
      const lines = tailLines(transcript);
      expect(lines).toContain(" ❯ 1. Yes, I trust this folder");
      expect(lines).toContain(" Enter to confirm · Esc to cancel");
      for (const line of lines) expect(line).not.toMatch(/[\x00-\x1f\x7f]/);
    } finally {
      mirror.dispose();
    }
  });
});
