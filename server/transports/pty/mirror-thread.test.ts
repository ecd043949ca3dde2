// The mirror on its worker thread keeps TerminalMirror's contract (exact snapshots, ordered resizes,
// parse callbacks in order), and a worker that dies releases everyone waiting on it.
import { afterEach, describe, expect, it } from "vitest";
import { MirrorThread, MirrorThreadLimits, MirrorUnavailableError, mirrorsMemory } from "./mirror-thread.ts";
import { threadMemory } from "./thread-memory.ts";
import { MirrorDisposedError, TerminalMirror } from "./terminal-mirror.ts";

const ESC = "\x1b[";
const threads: MirrorThread[] = [];
const mirrors: TerminalMirror[] = [];

afterEach(() => {
  for (const thread of threads.splice(0)) thread.dispose();
  for (const mirror of mirrors.splice(0)) mirror.dispose();
});

function newThread(cols = 80, rows = 24, workerSource?: string): MirrorThread {
  const thread = new MirrorThread(cols, rows, { workerSource, log: () => undefined });
  threads.push(thread);
  return thread;
}

/** The same input through an in-thread mirror: what the worker's snapshot must equal. */
async function inThread(writes: (mirror: TerminalMirror) => void, cols = 80, rows = 24): Promise<string> {
  const mirror = new TerminalMirror(cols, rows);
  mirrors.push(mirror);
  writes(mirror);
  return (await mirror.snapshot()).data;
}

const lines = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `${ESC}${31 + (i % 7)}m${tag} ${i} ${ESC}0m${"=".repeat(i % 50)}\r\n`).join("");

describe("MirrorThread", () => {
  it("snapshots exactly what was written before the call, as the in-thread mirror does", async () => {
    const thread = newThread();
    thread.write(lines(500, "before"));
    const pending = thread.snapshot();
    thread.write(lines(10, "after"));
    const snapshot = await pending;
    expect(snapshot.data).toBe(await inThread((mirror) => mirror.write(lines(500, "before"))));
    expect(snapshot.data).not.toContain("after");
    expect((await thread.snapshot()).data).toContain("after 9");
  });

  it("applies a resize behind earlier writes and reports the new size at once", async () => {
    const thread = newThread(80, 24);
    const write = (mirror: { write(data: string): void; resize(cols: number, rows: number): void }) => {
      mirror.write(`${"w".repeat(70)}\r\n`);
      mirror.resize(40, 10);
      mirror.write("after resize");
    };
    write(thread);
    expect({ cols: thread.cols, rows: thread.rows }).toEqual({ cols: 40, rows: 10 });
    const snapshot = await thread.snapshot();
    expect({ cols: snapshot.cols, rows: snapshot.rows }).toEqual({ cols: 40, rows: 10 });
    expect(snapshot.data).toBe(await inThread(write));
  });

  it("calls back each write once parsed, in order, and counts what is still unparsed", async () => {
    const thread = newThread();
    const parsed: number[] = [];
    for (let i = 0; i < 50; i++) thread.write("x".repeat(1_000), () => parsed.push(i));
    expect(thread.pendingChars).toBe(50_000);
    await thread.snapshot({ excludeModes: true });
    expect(parsed).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(thread.pendingChars).toBe(0);
  });

  it("feeds the worker each batch as UTF-8 bytes that decode to exactly the chars written", async () => {
    // A worker that reports what each write message carried, instead of parsing it.
    const reports: string[] = [];
    const thread = new MirrorThread(80, 24, {
      log: () => undefined,
      onReply: (data) => reports.push(data),
      workerSource: `const { parentPort } = require("node:worker_threads");
        parentPort.on("message", (m) => {
          if (m.type !== "write") return;
          const kind = m.data instanceof Uint8Array ? "bytes" : typeof m.data;
          parentPort.postMessage({ type: "reply", data: JSON.stringify([kind, m.data.byteLength, Buffer.from(m.data).toString("utf8")]) });
          parentPort.postMessage({ type: "parsed", writes: 1 });
        });`,
    });
    threads.push(thread);
    const parts = ["┌─ box ─┐\r\n", "wide 漢字 and 👩‍💻 ", `${ESC}31mcombining e\u0301${ESC}0m`, "plain latin-1: café"];
    const parsed: number[] = [];
    parts.forEach((part, i) => thread.write(part, () => parsed.push(i))); // one turn: one batch
    expect(thread.pendingChars).toBe(parts.join("").length); // flow control counts chars, not bytes
    await new Promise<void>((resolve) => {
      const poll = () => (parsed.length === parts.length ? resolve() : setTimeout(poll, 5));
      poll();
    });
    const text = parts.join("");
    expect(reports.map((r) => JSON.parse(r) as unknown)).toEqual([["bytes", Buffer.byteLength(text, "utf8"), text]]);
    expect(thread.pendingChars).toBe(0);
  });

  it("parses text past Latin-1, in small writes and large ones, as the in-thread mirror parses the strings", async () => {
    const text = (i: number) => `${ESC}3${i % 8}m│ ${i} ─ 漢字 👩‍💻 e\u0301 ✓${ESC}0m ${"═".repeat(i % 90)}\r\n`;
    const write = (mirror: { write(data: string): void }) => {
      for (let i = 0; i < 400; i++) mirror.write(text(i)); // many chunks, joined into few messages
      mirror.write(Array.from({ length: 400 }, (_, i) => text(i + 400)).join("")); // one large one
    };
    const thread = newThread(100, 30);
    write(thread);
    expect((await thread.snapshot()).data).toBe(await inThread(write, 100, 30));
  });

  it("leaves modes out of a transcript snapshot", async () => {
    const thread = newThread();
    thread.write(`${ESC}?2004h${ESC}?1000hready`);
    expect((await thread.snapshot()).data).toContain("?1000h");
    expect((await thread.snapshot({ excludeModes: true })).data).not.toContain("?1000h");
  });

  it("previews the visible screen after everything written before the call", async () => {
    const thread = newThread(20, 3);
    thread.write("one\r\ntwo\r\nthree\r\n\x1b[32mfour\x1b[0m");
    const pending = thread.preview();
    thread.write("\r\nfive");
    const preview = await pending;
    expect(preview.lines.map((runs) => runs.map((run) => run.text).join(""))).toEqual(["two", "three", "four"]);
    expect(preview.lines[2]).toEqual([{ text: "four", fg: 2 }]);
  });

  it("answers a repeated preview without the worker until something is written", async () => {
    const thread = newThread(20, 3);
    thread.write("one");
    const first = thread.preview();
    expect(thread.preview()).toBe(first);
    const slow = thread.snapshot(); // the worker is busy with this one...
    expect(thread.preview()).toBe(first); // ...and the unchanged screen is not queued behind it
    thread.write("\r\ntwo");
    const second = thread.preview();
    expect(second).not.toBe(first);
    expect((await second).lines.map((runs) => runs.map((run) => run.text).join(""))).toEqual(["one", "two", ""]);
    await slow;
    thread.resize(10, 3);
    expect(thread.preview()).not.toBe(second);
  });

  it("reports its worker's own memory, in a young generation capped apart from the server's", async () => {
    const thread = newThread(150, 50);
    thread.write(lines(3_000, "flood"));
    await thread.snapshot(); // parsed
    const memory = await thread.memory();
    // The scrollback's cells live outside the worker's heap (typed arrays); its young generation is its own.
    expect(memory.heapUsed).toBeGreaterThan(0);
    expect(memory.external).toBeGreaterThan(3_000 * 150 * 12);
    expect(memory.newSpace).toBeLessThanOrEqual(MirrorThreadLimits.YOUNG_GENERATION_MB * 1024 * 1024);
    expect(memory.external).not.toBe(threadMemory().external);
    expect(await mirrorsMemory()).toContainEqual(expect.objectContaining({ external: expect.any(Number) as number }));
    const live = (await mirrorsMemory()).length;
    thread.dispose();
    expect((await mirrorsMemory()).length).toBe(live - 1);
  });

  it("rejects waiting snapshots when disposed, and refuses reads afterwards", async () => {
    const thread = new MirrorThread(80, 24);
    thread.write("x".repeat(200_000));
    const pending = thread.snapshot();
    thread.dispose();
    await expect(pending).rejects.toBeInstanceOf(MirrorDisposedError);
    await expect(thread.snapshot()).rejects.toBeInstanceOf(MirrorDisposedError);
    thread.write("ignored");
  });

  it("releases waiting writes and snapshots when its worker dies, so output is never held back", async () => {
    // A worker that dies on its first message, as a crash in the parser would.
    const thread = newThread(
      80,
      24,
      `require("node:worker_threads").parentPort.on("message", () => { throw new Error("parser crashed"); });`,
    );
    const parsed: number[] = [];
    thread.write("one", () => parsed.push(1));
    thread.write("two", () => parsed.push(2));
    await expect(thread.snapshot()).rejects.toBeInstanceOf(MirrorUnavailableError);
    expect(parsed).toEqual([1, 2]);
    expect(thread.pendingChars).toBe(0);
    // Later writes are released at once; snapshots say why they cannot be taken.
    thread.write("three", () => parsed.push(3));
    expect(parsed).toEqual([1, 2, 3]);
    await expect(thread.snapshot()).rejects.toThrow(/screen copy stopped working/);
  });
});
