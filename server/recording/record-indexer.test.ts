// The live indexer's pace: a turn takes in at most its share of the recording, in whole lines (a line
// longer than the share whole), and turn by turn it reaches the same transcript as one pass.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase } from "../db/client.ts";
import { encodeEvent, encodeHeader, parseCast } from "./asciicast.ts";
import { deriveTranscript, RecordIndexer, RecordIndexerLimits } from "./record-indexer.ts";
import { readTranscriptCache } from "./record-files.ts";
import { SearchIndex } from "./search-index.ts";
import { TranscriptBuilder, transcriptText } from "./transcript.ts";

describe("RecordIndexer.advance", () => {
  it("takes in at most maxBytes a turn, in whole lines, and ends where one pass ends", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-indexer-"));
    applyMigrations(path.join(dataDir, "studyloop.db"));
    const db = openDatabase(path.join(dataDir, "studyloop.db"));
    const id = crypto.randomUUID();
    await db.studySession.create({ data: { id, topic: "pace", energy: 5, agent: "tutor", transport: "pty", status: "live" } });
    const dir = path.join(dataDir, "sessions", id);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "session.cast");
    const lines = [encodeHeader({ version: 2, width: 40, height: 5, timestamp: 0 })];
    for (let i = 1; i <= 300; i++) lines.push(encodeEvent({ time: i / 10, code: "o", data: `line ${i}\r\n` }));
    lines.push(encodeEvent({ time: 31, code: "o", data: `${"x".repeat(3_000)}\r\n` })); // longer than a turn's share
    lines.push(encodeEvent({ time: 32, code: "o", data: "clear follows\r\n\x1b[H\x1b[2J" }));
    fs.writeFileSync(file, lines.join(""));
    const size = fs.statSync(file).size;

    const indexer = new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined);
    const state = indexer.live(id, file, 0);
    const offsets: number[] = [];
    while (state.offset < size && offsets.length < 1_000) {
      const before = state.offset;
      await indexer.advance(state, size, 1_000);
      expect(state.offset).toBeGreaterThan(before);
      offsets.push(state.offset);
    }
    const steps = offsets.map((o, i) => o - (offsets[i - 1] ?? 0));
    expect(steps.filter((s) => s > 1_000)).toHaveLength(1); // only the long line, whole
    expect(
      offsets.every(
        (o) =>
          o === size ||
          fs
            .readFileSync(file)
            .subarray(o - 1, o)
            .toString() === "\n",
      ),
    ).toBe(true);
    await indexer.finish(state);
    // Turn by turn, the same transcript as one pass over the whole recording, all of it searchable.
    const segments = readTranscriptCache(dir, size);
    expect(segments).toEqual((await deriveTranscript(file))!.segments);
    expect(transcriptText(segments!)).toContain("line 150\nline 151");
    expect(transcriptText(segments!)).toContain("clear follows");
    expect(await db.searchDoc.count({ where: { sessionId: id, kind: "transcript", text: { contains: "line 299" } } })).toBe(1);
    await db.$disconnect();
  });
});

describe("a whole recording, a piece at a time", () => {
  it("derives (and finishes) a recording many pieces long as one pass over all of it would", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-indexer-"));
    applyMigrations(path.join(dataDir, "studyloop.db"));
    const db = openDatabase(path.join(dataDir, "studyloop.db"));
    const id = crypto.randomUUID();
    await db.studySession.create({ data: { id, topic: "pieces", energy: 5, agent: "tutor", transport: "pty", status: "live" } });
    const dir = path.join(dataDir, "sessions", id);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "session.cast");
    const lines = [encodeHeader({ version: 2, width: 100, height: 10, timestamp: 1_700_000_000 })];
    const piece = 4_096;
    let bytes = 0;
    for (let i = 1; bytes < piece * 12; i++) {
      const line = encodeEvent({ time: i / 100, code: "o", data: `row ${i} ${"é".repeat(i % 40)}${"-".repeat(60)}\r\n` });
      bytes += Buffer.byteLength(line);
      lines.push(line);
    }
    lines.push(encodeEvent({ time: 9_999, code: "o", data: "the last words\r\n" }));
    fs.writeFileSync(file, `${lines.join("")}[10000, "o", "torn`); // a kill -9 cut the last line
    const whole = fs.readFileSync(file, "utf8");
    const cast = parseCast(whole.slice(0, whole.lastIndexOf("\n") + 1))!;
    const reference = new TranscriptBuilder(cast.header.width, cast.header.height);
    await reference.feed(cast.events);
    const expected = [...reference.take(), ...reference.finish()];

    expect(RecordIndexerLimits.PASS_MAX_BYTES).toBeLessThanOrEqual(4 * 1024 * 1024);
    const derived = (await deriveTranscript(file, piece))!;
    expect(derived.bytes).toBe(fs.statSync(file).size);
    expect(derived.startMs).toBe(1_700_000_000_000);
    expect(derived.segments).toEqual(expected);
    expect(transcriptText(derived.segments)).toContain("the last words");

    const indexer = new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined);
    const state = indexer.live(id, file, 0);
    await indexer.finish(state, piece);
    expect(state.offset).toBe(fs.readFileSync(file).lastIndexOf(0x0a) + 1);
    expect(readTranscriptCache(dir, state.offset)).toEqual(expected);
    await db.$disconnect();
  });
});

/** A data directory with a session whose recording holds `lines` (the row `status`, ended or live). */
async function recordedSession(topic: string, status: "ended" | "live", lines: readonly string[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-indexer-"));
  applyMigrations(path.join(dataDir, "studyloop.db"));
  const db = openDatabase(path.join(dataDir, "studyloop.db"));
  const id = crypto.randomUUID();
  await db.studySession.create({
    data: {
      id,
      topic,
      energy: 5,
      agent: "tutor",
      transport: "pty",
      status,
      endedAt: status === "ended" ? new Date() : null,
      recordingPath: `sessions/${id}/session.cast`,
    },
  });
  const dir = path.join(dataDir, "sessions", id);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "session.cast");
  const events = lines.map((data, i) => encodeEvent({ time: i / 100, code: "o", data }));
  fs.writeFileSync(file, [encodeHeader({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 }), ...events].join(""));
  return { dataDir, db, id, dir, file };
}

describe("indexing a recording again (after a crash)", () => {
  it("marks the transcript complete only once the index has it all, so a failure midway is indexed again", async () => {
    const { dataDir, db, id, dir, file } = await recordedSession(
      "again",
      "ended",
      Array.from({ length: 200 }, (_, i) => `remembered line ${i}\r\n`),
    );

    class FailingIndex extends SearchIndex {
      override async replace(): Promise<void> {
        throw new Error("database is locked");
      }
    }
    await expect(new RecordIndexer(db, dataDir, new FailingIndex(db), () => undefined).reindex(id)).rejects.toThrow("locked");
    expect(readTranscriptCache(dir, fs.statSync(file).size)).toBeNull();

    const indexer = new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined);
    expect(await indexer.catchUp()).toBe(1);
    expect(transcriptText(readTranscriptCache(dir, fs.statSync(file).size)!)).toContain("remembered line 199");
    expect(await db.searchDoc.count({ where: { sessionId: id, kind: "transcript", text: { contains: "remembered line 150" } } })).toBe(1);
    expect(await indexer.catchUp()).toBe(0);
    await db.$disconnect();
  });
});

describe("a stop during indexing", () => {
  it("stops at the next piece, leaves the transcript unmarked, and the next start indexes it whole, once", async () => {
    const { dataDir, db, id, dir, file } = await recordedSession(
      "stop",
      "live",
      Array.from({ length: 3_000 }, (_, i) => `flooded line ${i} ${"-".repeat(60)}\r\n`),
    );

    const halt = new AbortController();
    const stopping = new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined, halt.signal);
    const state = stopping.live(id, file, 0);
    await stopping.advance(state, fs.statSync(file).size, 4_096); // the first turn, then the end's catch-up
    const finishing = stopping.finish(state, 4_096);
    halt.abort();
    await expect(finishing).rejects.toThrow(/abort/i);
    expect(state.offset).toBeLessThan(fs.statSync(file).size);
    expect(readTranscriptCache(dir, fs.statSync(file).size)).toBeNull();

    await db.studySession.update({ where: { id }, data: { status: "ended", endedAt: new Date() } });
    const restarted = new RecordIndexer(db, dataDir, new SearchIndex(db), () => undefined);
    expect(await restarted.catchUp()).toBe(1);
    expect(transcriptText(readTranscriptCache(dir, fs.statSync(file).size)!)).toContain("flooded line 2999");
    for (const n of [0, 1500, 2999])
      expect(await db.searchDoc.count({ where: { sessionId: id, kind: "transcript", text: { contains: `flooded line ${n} ` } } })).toBe(1);
    await db.$disconnect();
  });
});
