// Reads a terminal's raw output for the notifier: the bells it rings and its plain text. A BEL that
// ends an OSC string (a window title: ESC ] 0 ; title BEL) is a terminator, not a bell, so the scanner
// keeps the escape-sequence state across chunks (ECMA-48: CSI, OSC, DCS/SOS/PM/APC strings). Pure.

type State = "ground" | "esc" | "csi" | "string" | "string-esc";

const ESC = 0x1b;
const BEL = 0x07;

export interface Scanned {
  /** Bells rung in this chunk. */
  readonly bells: number;
  /** Printable text with "\n" and "\r" kept (every other control and escape removed). */
  readonly text: string;
}

export class TerminalScanner {
  private state: State = "ground";

  scan(chunk: string): Scanned {
    let bells = 0;
    // Text is taken as runs of kept chars (slices), not char by char: a flood is megabytes of it.
    const runs: string[] = [];
    let runStart = -1;
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      const keep =
        this.state === "ground" && (code === 0x0a || code === 0x0d || (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)));
      if (keep) {
        if (runStart === -1) runStart = i;
        continue;
      }
      if (runStart !== -1) {
        runs.push(chunk.slice(runStart, i));
        runStart = -1;
      }
      switch (this.state) {
        case "ground":
          if (code === ESC) this.state = "esc";
          else if (code === BEL) bells++;
          else if (code === 0x9b)
            this.state = "csi"; // 8-bit CSI
          else if (code === 0x9d || code === 0x90) this.state = "string"; // 8-bit OSC, DCS
          break; // other controls are dropped
        case "esc":
          if (code === 0x5b)
            this.state = "csi"; // [
          else if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f)
            this.state = "string"; // ] P X ^ _
          else if (code >= 0x20 && code <= 0x2f)
            this.state = "esc"; // intermediates: ESC ( B and the like
          else this.state = "ground";
          break;
        case "csi":
          if (code >= 0x40 && code <= 0x7e) this.state = "ground";
          else if (code === ESC) this.state = "esc";
          break;
        case "string":
          if (code === BEL || code === 0x9c) this.state = "ground";
          else if (code === ESC) this.state = "string-esc";
          break;
        case "string-esc":
          // ESC \ ends the string; any other ESC starts a new sequence.
          this.state = code === 0x5c ? "ground" : code === 0x5b ? "csi" : "esc";
          break;
      }
    }
    if (runStart !== -1) runs.push(chunk.slice(runStart));
    return { bells, text: runs.length === 1 ? runs[0]! : runs.join("") };
  }
}
