// ReplayRing: what it keeps, what a viewer can resume from, and what it gets. Pure.
import { describe, expect, it } from "vitest";
import { ReplayRing, type RingFrame } from "./replay-ring.ts";

const out = (seq: number, chars: number): RingFrame => ({ type: "output", seq, data: "x".repeat(chars) });
const seqs = (frames: Iterable<RingFrame>) => [...frames].map((f) => `${f.type[0]}${f.seq}`);

describe("ReplayRing", () => {
  it("keeps the newest output within its chars, and a viewer resumes only from what it still has", () => {
    const ring = new ReplayRing({ maxChars: 10, maxFrames: 100 });
    for (let seq = 1; seq <= 5; seq++) ring.push(out(seq, 4)); // 20 chars: 1-3 go
    expect(ring.chars).toBe(8);
    expect(seqs(ring.all())).toEqual(["o4", "o5"]);
    const table: [since: number, resumable: boolean][] = [
      [0, false],
      [2, false],
      [3, true], // saw 1-3, missed 4 and 5, both still here
      [5, true],
      [6, false], // never sent
      [3.5, false],
    ];
    for (const [since, resumable] of table) expect([since, ring.canResumeFrom(since, 5)]).toEqual([since, resumable]);
    expect(seqs(ring.after(3))).toEqual(["o4", "o5"]);
    expect(seqs(ring.after(5))).toEqual([]);
  });

  it("keeps the last frame even when it alone is over the limit", () => {
    const ring = new ReplayRing({ maxChars: 10, maxFrames: 100 });
    ring.push(out(1, 50));
    expect(seqs(ring.all())).toEqual(["o1"]);
  });

  it("gives a resize after chunk n to a viewer that saw n, and then no longer resumes one from n once it is gone", () => {
    const ring = new ReplayRing({ maxChars: 100, maxFrames: 3 });
    ring.push(out(1, 1));
    ring.push({ type: "resize", seq: 1, cols: 100, rows: 30 });
    ring.push(out(2, 1));
    expect(seqs(ring.after(1))).toEqual(["r1", "o2"]);
    ring.push(out(3, 1)); // 4 frames: chunk 1 goes
    expect(ring.canResumeFrom(1, 3)).toBe(true);
    ring.push(out(4, 1)); // the resize goes: a viewer that saw chunk 1 would miss it
    expect(ring.canResumeFrom(1, 4)).toBe(false);
    expect(ring.canResumeFrom(2, 4)).toBe(true);
  });

  it("stays the same across its compaction, and clear empties it", () => {
    const ring = new ReplayRing({ maxChars: 1_000_000, maxFrames: 1_500 });
    for (let seq = 1; seq <= 5_000; seq++) ring.push(out(seq, 1));
    expect(ring.chars).toBe(1_500);
    expect(seqs(ring.all())).toEqual(Array.from({ length: 1_500 }, (_, i) => `o${3_501 + i}`));
    ring.clear();
    expect([...ring.all()]).toEqual([]);
    expect(ring.chars).toBe(0);
  });
});
