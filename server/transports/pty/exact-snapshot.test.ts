// The snapshot restores exactly: for each state in a deterministic escape corpus, a terminal restored
// from the mirror's snapshot equals, cell by cell and mode by mode, one that saw the whole stream; and
// it stays equal when the same output follows in both (the wrap, the pen, the region, the charsets).
import { afterEach, describe, expect, it } from "vitest";
import { TerminalMirror } from "./terminal-mirror.ts";
import { feedMirror, ReferenceTerminal, restore, type RecordedEvent } from "./fidelity-support.ts";

const E = "\x1b[";
const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

const fill = (cols: number, rows: number) =>
  Array.from({ length: rows }, (_, y) => `${String.fromCharCode(65 + (y % 26)).repeat(cols)}`).join("\r\n");

/** Each case: the stream (output and resizes) at a start size, then output that follows the cut. */
const CORPUS: { name: string; size?: [number, number]; events: RecordedEvent[]; after?: string }[] = [
  {
    name: "plain text and colours in every mode",
    events: [{ o: `a${E}31mred${E}1;4;3mbi${E}38;5;200mp${E}38;2;1;2;3mrgb${E}48;5;17mbg${E}7minv${E}0m ${E}9;53mx${E}2mdim` }],
    after: "next",
  },
  {
    // The addon writes `1;22` for dim-to-bold, and 22 turns bold off too (codex's sign-in screen).
    name: "bold text right after dim text, and dim after bold",
    events: [{ o: `${E}2m  Press ${E}22m${E}1m${E}38;2;230;227;220;49menter${E}22m${E}2m${E}39;49m to go on${E}0m ${E}1mB${E}22;2md` }],
    after: "x",
  },
  {
    name: "bold after dim with colours whose numbers are 1 and 22",
    events: [{ o: `${E}2;38;2;1;22;1mdim${E}22;1;38;5;22;48;2;22;1;1mbold${E}0m` }],
    after: "y",
  },
  // Output that stops in the middle of a sequence (a frame split across two chunks): the snapshot
  // leaves the restored terminal mid-sequence too, so the rest of it is not printed as text.
  { name: "a colour cut in half", events: [{ o: `a${E}1m${E}48;2;` }], after: "10;10;10mX" },
  { name: "a cut right after ESC", events: [{ o: `ab${E}32m\x1b` }], after: "[4mU" },
  { name: "a cut in an OSC (title)", events: [{ o: `c\x1b]0;half of a ti` }], after: "tle\x07Y" },
  { name: "a cut between the ESC and the backslash of a DCS's end", events: [{ o: `d\x1bP$qm\x1b` }], after: "\\Z" },
  { name: "a CSI cut after a finished one and an aborted one", events: [{ o: `e${E}31m${E}12\x18${E}?25` }], after: "lW" },
  { name: "a full bottom row (wrap pending)", size: [20, 5], events: [{ o: `${fill(20, 5)}` }], after: "Z" },
  { name: "a full row in the middle (wrap pending)", size: [20, 5], events: [{ o: `${E}2;1H${"m".repeat(20)}` }], after: "Q" },
  {
    name: "a full row with text below it (wrap pending)",
    size: [20, 5],
    events: [{ o: `${E}5;1Hbelow${E}3;1H${"m".repeat(20)}` }],
    after: "Q",
  },
  {
    name: "wrap pending on the bottom row under tmux's status line",
    size: [20, 5],
    events: [{ o: `${E}5;1H${E}7mstatus${E}0m${E}1;4r${E}4;1H${"p".repeat(20)}` }],
    after: "q",
  },
  { name: "wrap pending on a wide character", size: [10, 3], events: [{ o: `${E}3;1H12345678漢` }], after: "x" },
  { name: "wrap pending in colour", size: [10, 3], events: [{ o: `${E}3;1H${E}32;44m0123456789${E}0m` }], after: "x" },
  { name: "hidden cursor and cursor style", events: [{ o: `${E}?25l${E}5 qhello` }] },
  { name: "steady underline cursor", events: [{ o: `${E}4 q` }] },
  { name: "scroll region", size: [20, 8], events: [{ o: `${fill(20, 8)}${E}2;5r${E}5;1H` }], after: "\n\n\nscrolled" },
  { name: "scroll region with origin mode", size: [20, 8], events: [{ o: `${E}3;6r${E}?6h${E}2;4Hin` }], after: "\n\n\n\nx" },
  { name: "DEC line drawing in G0", events: [{ o: `${E}1;1H\x1b(0lqqk\x1b(B ok\x1b(0` }], after: "lqk" },
  { name: "line drawing in G1, shifted out", events: [{ o: `\x1b)0\x0eqqq` }], after: "x\x0fx" },
  { name: "mouse tracking with SGR encoding", events: [{ o: `${E}?1002h${E}?1006h` }] },
  { name: "any-motion mouse, default encoding", events: [{ o: `${E}?1003h` }] },
  { name: "keypad, cursor keys, bracketed paste, focus", events: [{ o: `\x1b=${E}?1h${E}?2004h${E}?1004h` }] },
  { name: "insert mode and no auto-wrap", events: [{ o: `abc${E}4h${E}?7l${E}1;2H` }], after: "XY" },
  { name: "kitty keyboard flags pushed", events: [{ o: `${E}>1u${E}>3u` }] },
  { name: "title and colours set by the program", events: [{ o: `\x1b]2;my title\x07\x1b]11;#102030\x07\x1b]12;rgb:ff/00/00\x1b\\` }] },
  { name: "the pen carries on", events: [{ o: `${E}1;35;48;2;9;9;9mbold` }], after: "more" },
  { name: "the pen changed after the last cell", events: [{ o: `${E}1;35mbold${E}0;3;44m` }], after: "more" },
  { name: "saved cursor", events: [{ o: `${E}5;7H${E}33m\x1b7${E}0m${E}1;1Hx` }], after: "\x1b8y" },
  { name: "alternate screen", events: [{ o: `main text\r\n${E}?1049h${E}2;3Halt${E}?25l` }], after: `${E}?1049lback` },
  {
    name: "narrower with the alternate screen (rows clipped to the width)",
    size: [80, 10],
    events: [{ o: `${E}?1049h${fill(80, 10)}${E}1;1H` }, { r: [47, 10] }, { o: `${E}3;3Hx` }],
    after: "y",
  },
  { name: "narrower, then wider again", size: [40, 6], events: [{ o: `${E}?1049h${fill(40, 6)}` }, { r: [20, 6] }, { r: [30, 4] }] },
  {
    name: "text placed with CHA (empty cells between words), reflowed narrower",
    size: [30, 6],
    events: [{ o: "xxxxxxxxxx\x1b[12Gyy\r\nxxxxxxxx\x1b[11Gyy\r\naaaa\x1b[12Gbbbb\x1b[25Gcccc" }, { r: [10, 6] }],
    after: "z",
  },
  { name: "wide characters and emoji", events: [{ o: "漢字 🙂 e\u0301 ok" }], after: "漢" },
  {
    name: "scrollback with wrapped lines",
    size: [20, 5],
    events: [{ o: Array.from({ length: 30 }, (_, i) => `line ${i} ${"w".repeat(i)}`).join("\r\n") }],
    after: "!",
  },
  {
    name: "resized with output in between",
    size: [30, 6],
    events: [{ o: "before\r\n" }, { r: [12, 4] }, { o: "after the resize, long" }, { r: [25, 8] }],
    after: "z",
  },
];

async function check(c: (typeof CORPUS)[number]): Promise<void> {
  const [cols, rows] = c.size ?? [80, 24];
  const mirror = new TerminalMirror(cols, rows);
  const reference = new ReferenceTerminal(cols, rows);
  disposables.push(mirror, reference);
  for (const event of c.events) {
    feedMirror(mirror, event);
    await reference.apply(event);
  }
  const restored = await restore(await mirror.snapshot());
  disposables.push(restored);
  expect(restored.state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
  if (c.after !== undefined) {
    await reference.write(c.after);
    await restored.write(c.after);
    expect(restored.state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
  }
}

describe("exact snapshots", () => {
  for (const c of CORPUS) it(c.name, () => check(c));

  it("a snapshot without modes leaves input modes out, and keeps the screen", async () => {
    const mirror = new TerminalMirror(40, 5);
    disposables.push(mirror);
    mirror.write(`${E}?1003h${E}?1006h${E}?2004h${E}?1004h${E}>1uhello`);
    const restored = await restore(await mirror.snapshot({ excludeModes: true }));
    disposables.push(restored);
    const state = restored.state();
    expect(state.modes.mouseTrackingMode).toBe("none");
    expect(state.mouseEncoding).toBe("DEFAULT");
    expect(state.modes.bracketedPasteMode).toBe(false);
    expect(state.extras?.kittyFlags).toEqual([]);
    expect(
      state.screen[0]!.slice(0, 5)
        .map((cell) => cell.split("|")[0])
        .join(""),
    ).toBe("hello");
  });
});
