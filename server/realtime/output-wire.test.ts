// Output sent as bytes puts exactly what the string would on a page's terminal: real programs' recorded
// output written through outputOnWire, as the browser gets it (an ArrayBuffer, small chunks as strings),
// compared cell by cell and mode by mode, scrollback included, with a terminal that got the strings.
import { afterEach, describe, expect, it } from "vitest";
import { loadRecordings, ReferenceTerminal } from "../transports/pty/fidelity-support.ts";
import { OutputWire, outputOnWire } from "./output-wire.ts";

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

/** What the page does with a frame: the string, or the bytes as an ArrayBuffer; resolves with the chars it acks. */
function pageWrite(page: ReferenceTerminal, data: string, minChars: number): Promise<number> {
  const frame = outputOnWire({ type: "output", seq: 1, data }, minChars);
  return new Promise((resolve) => {
    if (frame.type === "output") page.terminal.write(frame.data, () => resolve(frame.data.length));
    else page.terminal.write(new Uint8Array(new Uint8Array(frame.bytes).slice().buffer), () => resolve(frame.chars));
  });
}

describe("output as bytes", () => {
  it.each([
    ["an echo stays a string", "a", OutputWire.BYTES_FROM_CHARS, "output"],
    ["just under the threshold stays a string", "x".repeat(1023), 1024, "output"],
    ["from the threshold on it is bytes", "x".repeat(1024), 1024, "output-bytes"],
    ["wide text and emoji: chars counted as the string's length", "漢字 🙂 é\x1b[1m".repeat(200), 1024, "output-bytes"],
  ])("%s", (_name, data, minChars, type) => {
    const frame = outputOnWire({ type: "output", seq: 9, data }, minChars);
    expect(frame.type).toBe(type);
    if (frame.type === "output-bytes") {
      expect(frame).toMatchObject({ seq: 9, chars: data.length });
      expect(Buffer.from(frame.bytes as Uint8Array).toString("utf8")).toBe(data);
    } else {
      expect(frame).toEqual({ type: "output", seq: 9, data });
    }
  });

  it("encodes a chunk once for all its viewers, and a new chunk anew", () => {
    const chunk = { type: "output" as const, seq: 3, data: "x".repeat(2048) };
    const first = outputOnWire(chunk, 1024);
    expect(outputOnWire(chunk, 1024)).toBe(first); // the second viewer gets the same bytes
    const next = outputOnWire({ type: "output", seq: 4, data: "y".repeat(2048) }, 1024);
    expect(next).not.toBe(first);
    expect(next).toMatchObject({ seq: 4, chars: 2048 });
    expect(Buffer.from((first as { bytes: Uint8Array }).bytes).toString("utf8")).toBe(chunk.data);
  });

  for (const recording of loadRecordings()) {
    it(`puts ${recording.name} on the page exactly, and the page acks every char`, async () => {
      const reference = new ReferenceTerminal(recording.cols, recording.rows);
      const page = new ReferenceTerminal(recording.cols, recording.rows);
      disposables.push(reference, page);
      let sent = 0;
      let acked = 0;
      let asBytes = 0;
      for (const event of recording.events) {
        await reference.apply(event);
        if ("r" in event) {
          page.resize(event.r[0], event.r[1]);
          continue;
        }
        sent += event.o.length;
        // A low threshold, so most of a recording's chunks go as bytes and a few as strings.
        if (event.o.length >= 64) asBytes++;
        acked += await pageWrite(page, event.o, 64);
      }
      expect(asBytes).toBeGreaterThan(0);
      expect(acked).toBe(sent);
      expect(page.state({ scrollback: true })).toEqual(reference.state({ scrollback: true }));
    });
  }
});
