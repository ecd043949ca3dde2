// The escape sequence a terminal's output has begun and not yet finished. A program's frame arrives in
// chunks that can split a sequence (opencode's frames end a chunk in the middle of `ESC[48;2;`); a
// snapshot taken between two such chunks restores the screen but not the parser's half-read sequence,
// and the page would then print the rest of it (`10;10m`) as text. The snapshot ends with this tail,
// so the restored terminal is mid-sequence exactly where the mirror is. 7-bit sequences only: C1
// controls (U+009B...) are not tracked.

export const EscapeTailLimits = {
  /**
   * Chars of an unfinished sequence kept. A string sequence's (OSC, DCS, APC, PM, SOS) payload can be
   * megabytes (an image, a clipboard); past this the rest is not kept: the restored terminal still reads
   * the end of the sequence as part of one, so nothing lands on the screen, but that one sequence is lost.
   */
  STRING_CHARS: 4096,
} as const;

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;

/** As xterm.js's parser moves between them: a string is OSC (ended by BEL or ESC) or DCS/SOS/PM/APC (ESC). */
type State = "ground" | "escape" | "csi" | "osc" | "string";

/** After ESC: `[` opens a control sequence, `]` an OSC, these a string that only ESC (of ST) ends. */
const STRING_OPENERS = new Set([0x50, 0x58, 0x5e, 0x5f]);

export class EscapeTail {
  private state: State = "ground";
  /** The unfinished sequence so far (at most STRING_CHARS of a string sequence). */
  private tail = "";

  /** The unfinished sequence at the end of everything pushed so far ("" when the parser is at rest). */
  get pending(): string {
    return this.state === "ground" ? "" : this.tail;
  }

  /**
   * Follows one chunk of output (text, or text as UTF-8: every char this reads is 7-bit). ESC begins a
   * new sequence from any state, so only what follows the chunk's last ESC can leave one unfinished:
   * the scan starts there (a flood's chunks are full of finished sequences; reading them all was 8% of
   * the mirror's CPU), or where the chunk starts when it has no ESC and a sequence is still open.
   */
  push(data: string | Uint8Array): void {
    const text = typeof data === "string" ? data : null;
    const lastEscape = text !== null ? text.lastIndexOf("\x1b") : (data as Uint8Array).lastIndexOf(ESC);
    if (lastEscape >= 0 || this.state !== "ground") this.scan(data, text, Math.max(lastEscape, 0));
  }

  /** Reads `data` from `from` on, in the state the chunk so far has left. */
  private scan(data: string | Uint8Array, text: string | null, from: number): void {
    const code = (i: number) => (text !== null ? text.charCodeAt(i) : (data as Uint8Array)[i]!);
    const length = data.length;
    let start = from; // where this chunk's part of the unfinished sequence begins
    let i = from;
    while (i < length) {
      if (this.state === "ground") {
        const next = text !== null ? text.indexOf("\x1b", i) : (data as Uint8Array).indexOf(ESC, i);
        if (next < 0) break;
        this.tail = "";
        start = next;
        this.state = "escape";
        i = next + 1;
        continue;
      }
      const c = code(i++);
      if (c === CAN || c === SUB) {
        this.state = "ground";
        continue;
      }
      if (c === ESC) {
        // From any state ESC begins a new sequence; in a string it is also the first half of ST (ESC \\),
        // and the string is over once it is read.
        this.tail = "";
        start = i - 1;
        this.state = "escape";
        continue;
      }
      switch (this.state) {
        case "escape":
          if (c === 0x5b) this.state = "csi";
          else if (c === 0x5d) this.state = "osc";
          else if (STRING_OPENERS.has(c)) this.state = "string";
          else if (c >= 0x30 && c <= 0x7e) this.state = "ground"; // its final (0x20-0x2f: intermediates)
          break;
        case "csi":
          if (c >= 0x40 && c <= 0x7e) this.state = "ground";
          break;
        case "osc":
          if (c === BEL) this.state = "ground";
          break;
        case "string":
          break;
      }
    }
    if (this.state === "ground") {
      this.tail = "";
      return;
    }
    if (this.tail.length >= EscapeTailLimits.STRING_CHARS) return;
    const piece = text !== null ? text.slice(start) : Buffer.from((data as Uint8Array).subarray(start)).toString("utf8");
    this.tail += piece.slice(0, EscapeTailLimits.STRING_CHARS - this.tail.length);
  }
}
