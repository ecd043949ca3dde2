// cast-overview.ts against the whole-file reading it replaces (parseCast + castDuration/castMarkers),
// on real files: random recordings with markers, resizes, lines that look like markers inside output,
// bad and torn lines, read in pieces small enough that lines cross them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { castDuration, castMarkers, encodeEvent, encodeHeader, parseCast, type CastEvent } from "./asciicast.ts";
import { readCastOverview, scanCastOverview } from "./cast-overview.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cast-overview-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;

function write(text: string): string {
  const file = path.join(dir, `${files++}.cast`);
  fs.writeFileSync(file, text);
  return file;
}

/** The overview as the session page read it before: the whole file, parsed. */
function wholeFile(file: string) {
  const text = fs.readFileSync(file, "utf8");
  const cast = parseCast(text.slice(0, text.lastIndexOf("\n") + 1));
  return cast ? { duration: castDuration(cast), markers: castMarkers(cast), bytes: fs.statSync(file).size } : null;
}

/** A seeded generator (the same recordings every run). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const TRICKY = ["plain", ',"m",', '\\",\\"m\\",', "é 漢字 👩‍💻", "\\", '"]\n[', "\u001b[31mred\u001b[0m\r\n", "x".repeat(3_000)];

function randomCast(random: () => number): string {
  let text = encodeHeader({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 });
  let time = 0;
  const events = Math.floor(random() * 400);
  for (let i = 0; i < events; i++) {
    time += Math.round(random() * 2_000) / 1000;
    const pick = random();
    const data = TRICKY[Math.floor(random() * TRICKY.length)]!;
    const event: CastEvent =
      pick < 0.1
        ? { time, code: "m", data: `win: ${data}` }
        : pick < 0.15
          ? { time, code: "r", data: "100x30" }
          : { time, code: "o", data };
    text += pick > 0.97 ? "not json at all\n" : encodeEvent(event);
  }
  // Sometimes a line a kill -9 cut in half, sometimes one that ends the file unfinished.
  if (random() < 0.3) text += encodeEvent({ time: time + 1, code: "m", data: "torn" }).slice(0, 9);
  return text;
}

describe("readCastOverview", () => {
  it("gives what parsing the whole recording gives, whatever the pieces it reads", async () => {
    const random = lcg(7);
    for (let i = 0; i < 40; i++) {
      const file = write(randomCast(random));
      const expected = wholeFile(file);
      for (const piece of [256, 4_096, 1 << 20]) expect(await scanCastOverview(file, piece)).toEqual(expected);
    }
  }, 30_000);

  it("reads what is not a recording as none, as parseCast does", async () => {
    for (const text of ["", "{}\n", '{"version":3,"width":80,"height":24}\n[1,"o","x"]\n', '{"version":2,"width":80,"height":24}']) {
      const file = write(text);
      expect(await scanCastOverview(file, 16)).toEqual(wholeFile(file));
      expect(wholeFile(file)).toBeNull();
    }
  });

  it("keeps an unchanged recording's overview, and reads one again once it has grown", async () => {
    const header = encodeHeader({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 });
    const file = write(header + encodeEvent({ time: 1, code: "m", data: "parked: a" }));
    expect((await readCastOverview(file))?.markers).toEqual([{ time: 1, label: "parked: a" }]);
    fs.appendFileSync(file, encodeEvent({ time: 2.5, code: "m", data: "ended: agent exited" }));
    const grown = await readCastOverview(file);
    expect(grown).toEqual(wholeFile(file));
    expect(grown?.duration).toBe(2.5);
  });
});
