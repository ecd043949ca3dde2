import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { castMarkers, parseCast } from "./asciicast.ts";
import { CastWriter, CastWriterLimits, coalesce, type Pending } from "./cast-writer.ts";

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

  it("writes each event as exactly its JSON and one newline, whatever the text's bytes", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 1_000_000 });
    const outputs = ["plain\r\n", '\x1b[1;31mrød\x1b[0m "quoted" \\ back\r\n', "日本語 🙂 ".repeat(500), "\u0007\u0000 end"];
    for (const data of outputs) writer.output(data);
    await writer.flush();
    // Long events: surrogate pairs at every offset around 8 K chars (where a writer might cut), a lone one last.
    const long = (shift: number) => `${"x".repeat(shift)}${'🙂\x1b[0m"\\é'.repeat(4_000)}\ud83d`;
    const longs = [0, 1, 2, 3, 4, 5, 6, 7].map(long);
    for (const data of longs) {
      writer.output(data);
      await writer.flush(); // each its own event
    }
    writer.marker("é marker");
    await writer.close();
    const text = fs.readFileSync(f, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n").slice(1); // after the header
    for (const line of lines) expect(JSON.stringify(JSON.parse(line))).toBe(line);
    expect(lines.map((line) => (JSON.parse(line) as [number, string, string]).slice(1))).toEqual([
      ["o", outputs.join("")],
      ...longs.map((data) => ["o", data]),
      ["m", "é marker"],
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

  it("writes without waiting for FLUSH_MS once FLUSH_CHARS are queued (a flood's output is not held)", async () => {
    const f = file();
    const writer = CastWriter.open(f, { cols: 80, rows: 24, maxBytes: 10_000_000 });
    const headerBytes = fs.statSync(f).size;
    const line = `${"x".repeat(1_000)}\r\n`;
    for (let chars = 0; chars < CastWriterLimits.FLUSH_CHARS; chars += line.length) writer.output(line);
    writer.output("the last words");
    await new Promise((resolve) => setTimeout(resolve, 50)); // far less than FLUSH_MS
    const text = fs.readFileSync(f, "utf8");
    expect(fs.statSync(f).size).toBeGreaterThan(headerBytes + CastWriterLimits.FLUSH_CHARS);
    expect(text).toContain("the last words");
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

  it("writes the same file whether a flood's chunks are written in one batch or one by one", async () => {
    // The batch is encoded to UTF-8 at once; near the limit it is measured line by line: same lines.
    const chunks = Array.from({ length: 300 }, (_, i) => `\x1b[3${i % 8}mzeile ${i} ö 漢 🙂\x1b[0m\r\n`);
    const batched = file();
    const a = CastWriter.open(batched, { cols: 80, rows: 24, maxBytes: 1_000_000, startedAtMs: 0 });
    for (const c of chunks) a.output(c);
    await a.close("ended");
    const text = parseCast(fs.readFileSync(batched, "utf8"))!;
    expect(
      text.events
        .filter((e) => e.code === "o")
        .map((e) => e.data)
        .join(""),
    ).toBe(chunks.join(""));
    expect(a.bytes).toBe(fs.statSync(batched).size);
  });
});

describe("coalesce", () => {
  const o = (ms: number, data: string): Pending => ({ ms, code: "o", data });
  it.each<[string, Pending[], [number, string, string][]]>([
    ["chunks closer than COALESCE_MS join, at the first one's time", [o(0, "a"), o(3, "b"), o(7, "c")], [[0, "o", "abc"]]],
    [
      "a gap of COALESCE_MS starts a new event",
      [o(0, "a"), o(CastWriterLimits.COALESCE_MS, "b")],
      [
        [0, "o", "a"],
        [8, "o", "b"],
      ],
    ],
    [
      "a resize or marker in between is kept in its place",
      [o(0, "a"), { ms: 1, code: "r", data: "90x30" }, o(2, "b")],
      [
        [0, "o", "a"],
        [1, "r", "90x30"],
        [2, "o", "b"],
      ],
    ],
    [
      "an event stays within COALESCE_MAX_CHARS",
      [o(0, "x".repeat(16_000)), o(1, "y".repeat(1_000))],
      [
        [0, "o", "x".repeat(16_000)],
        [1, "o", "y".repeat(1_000)],
      ],
    ],
  ])("%s", (_name, batch, expected) => {
    const before = batch.map((e) => e.data);
    expect(coalesce(batch).map((e) => [e.ms, e.code, e.data])).toEqual(expected);
    expect(batch.map((e) => e.data)).toEqual(before); // the batch itself is not changed
  });
});
