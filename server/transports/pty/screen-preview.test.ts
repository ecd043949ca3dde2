// The screen preview is the visible screen, cell for cell: colours of every kind, attributes, wide
// characters, and nothing of the scrollback above it.
import headless from "@xterm/headless";
import { afterEach, describe, expect, it } from "vitest";
import { previewScreen, type ScreenPreview } from "./screen-preview.ts";

const { Terminal } = headless;
type HeadlessTerminal = InstanceType<typeof Terminal>;
const terminals: HeadlessTerminal[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.dispose();
});

async function preview(input: string, cols = 40, rows = 5): Promise<ScreenPreview> {
  const terminal = new Terminal({ cols, rows, scrollback: 100, allowProposedApi: true });
  terminals.push(terminal);
  await new Promise<void>((resolve) => terminal.write(input, resolve));
  return previewScreen(terminal.buffer.active, terminal.cols, terminal.rows);
}

const text = (p: ScreenPreview) => p.lines.map((runs) => runs.map((run) => run.text).join(""));

describe("previewScreen", () => {
  it("holds the visible rows only, with trailing blanks left out", async () => {
    const p = await preview(Array.from({ length: 8 }, (_, i) => `line ${i + 1}   `).join("\r\n"));
    expect({ cols: p.cols, rows: p.rows }).toEqual({ cols: 40, rows: 5 });
    expect(text(p)).toEqual(["line 4", "line 5", "line 6", "line 7", "line 8"]);
  });

  it("splits runs where the style changes and names each kind of colour", async () => {
    const p = await preview("plain \x1b[31mred\x1b[0m \x1b[1;38;5;208morange\x1b[0m \x1b[48;2;1;2;3mrgb\x1b[0m \x1b[7;4minv\x1b[0m");
    expect(p.lines[0]).toEqual([
      { text: "plain " },
      { text: "red", fg: 1 },
      { text: " " },
      { text: "orange", fg: 208, bold: true },
      { text: " " },
      { text: "rgb", bg: "#010203" },
      { text: " " },
      { text: "inv", inverse: true, underline: true },
    ]);
  });

  it("keeps wide characters whole and coloured blanks at the end of a row", async () => {
    const p = await preview("漢字 ok\r\n\x1b[44m    \x1b[0m");
    expect(p.lines[0]).toEqual([{ text: "漢", wide: true }, { text: "字", wide: true }, { text: " ok" }]);
    expect(p.lines[1]).toEqual([{ text: "    ", bg: 4 }]);
  });

  it("shows the alternate screen when a full-screen program is on it", async () => {
    const p = await preview("shell history\r\n\x1b[?1049h\x1b[H\x1b[2J\x1b[3;3Hmenu");
    expect(text(p)).toEqual(["", "", "  menu", "", ""]);
  });
});
