import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { castMarkers, parseCast } from "./asciicast.ts";
import { CastWriter } from "./cast-writer.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-cast-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const file = () => path.join(tmp, `${++n}.cast`);

describe("CastWriter", () => {
  it("writes an asciicast v2 file: header, output, resizes and markers in order", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 1_000_000 });
    writer.output("hello ");
    writer.output("wörld 🙂\r\n");
    writer.resize(100, 30);
    writer.marker("struggling: recursion");
    expect(fs.readFileSync(f, "utf8").split("\n").filter(Boolean)).toHaveLength(1); // only the header until a flush
    await writer.close("ended");
    const cast = parseCast(fs.readFileSync(f, "utf8"))!;
    expect(cast.header).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(cast.events.map((e) => [e.code, e.data])).toEqual([
      ["o", "hello wörld 🙂\r\n"],
      ["r", "100x30"],
      ["m", "struggling: recursion"],
      ["m", "ended"],
    ]);
    expect(writer.bytes).toBe(fs.statSync(f).size);
  });

  it("writes by itself within FLUSH_MS, without being asked", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 1_000_000 });
    writer.output("soon on disk");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(fs.readFileSync(f, "utf8")).toContain("soon on disk");
    await writer.close();
  });

  it("stops at its size limit with a marker that says so; the session's output is dropped after it", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 2_000 });
    for (let i = 0; i < 100; i++) {
      writer.output(`line ${i} ${"x".repeat(40)}\r\n`);
      await writer.flush();
    }
    writer.marker("parked: later");
    await writer.close("ended");
    const cast = parseCast(fs.readFileSync(f, "utf8"))!;
    expect(writer.stopped).toBe(true);
    expect(castMarkers(cast).map((m) => m.label)).toEqual(["recording stopped: it reached its 2 kB limit"]);
    expect(fs.statSync(f).size).toBeLessThan(2_000 + 200);
    expect(cast.events.filter((e) => e.code === "o").length).toBeGreaterThan(10);
  });

  it("reads back a file cut in the middle of a line (kill -9)", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 1_000_000 });
    writer.output("kept\r\n");
    await writer.close();
    fs.appendFileSync(f, '[1.5, "o", "torn');
    expect(parseCast(fs.readFileSync(f, "utf8"))!.events.map((e) => e.data)).toEqual(["kept\r\n"]);
  });
});

describe("CastWriter's clock", () => {
  it("counts from the session's start, so markers line up with the session's timeline", async () => {
    const f = path.join(tmp, "clock.cast");
    const startedAtMs = Date.now() - 5_000;
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 1_000_000, startedAtMs });
    writer.marker("struggling: recursion");
    await writer.close();
    const cast = parseCast(fs.readFileSync(f, "utf8"))!;
    expect(cast.header.timestamp).toBe(Math.floor(startedAtMs / 1000));
    expect(cast.events[0]!.time).toBeGreaterThanOrEqual(5);
  });
});
