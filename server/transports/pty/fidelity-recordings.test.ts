// Fidelity against recorded output of real programs (vim, less, top, tmux) and real agents' start-up
// screens (fixtures/recordings, made by fixtures/record.ts): the mirror's snapshot at any point, with
// any resizes on the way, restored into a fresh terminal, equals cell by cell and mode by mode a
// terminal that saw the whole stream; and the output that follows lands the same in both.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { TerminalMirror } from "./terminal-mirror.ts";
import { feedMirror, loadRecordings, ReferenceTerminal, restore, type RecordedEvent, type Recording } from "./fidelity-support.ts";

const recordings = loadRecordings();
const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

/** Output chunks fed after the cut to check that what follows lands the same (up to the next resize). */
const FOLLOW_EVENTS = 6;

async function cutAndCompare(recording: Recording, events: readonly RecordedEvent[], cut: number): Promise<void> {
  const mirror = new TerminalMirror(recording.cols, recording.rows);
  const reference = new ReferenceTerminal(recording.cols, recording.rows);
  disposables.push(mirror, reference);
  for (const event of events.slice(0, cut)) {
    feedMirror(mirror, event);
    await reference.apply(event);
  }
  const restored = await restore(await mirror.snapshot());
  disposables.push(restored);
  expect(restored.state({ scrollback: true }), `${recording.name} cut at ${cut}`).toEqual(reference.state({ scrollback: true }));
  let followed = 0;
  for (const event of events.slice(cut)) {
    if (!("o" in event) || followed++ >= FOLLOW_EVENTS) break;
    await reference.write(event.o);
    await restored.write(event.o);
  }
  expect(restored.state({ scrollback: true }), `${recording.name} cut at ${cut}, then ${followed} chunks`).toEqual(
    reference.state({ scrollback: true }),
  );
}

describe("fidelity on recordings of real programs", () => {
  it("has the recordings the issue asks for", () => {
    const names = recordings.map((r) => r.name);
    for (const name of ["vim", "less", "top", "tmux"]) expect(names).toContain(name);
    expect(names.filter((name) => ["claude", "codex", "gemini", "opencode"].includes(name)).length).toBeGreaterThanOrEqual(3);
  });

  for (const recording of recordings) {
    it(`${recording.name}: the end, and just before each recorded resize`, async () => {
      const cuts = new Set([recording.events.length]);
      recording.events.forEach((event, i) => {
        if ("r" in event) cuts.add(i).add(i + 1);
      });
      for (const cut of cuts) await cutAndCompare(recording, recording.events, cut);
    });
  }

  it("random cuts with random resizes (seeded)", async () => {
    if (recordings.length === 0) return;
    const resize = fc.record({ at: fc.nat(), cols: fc.integer({ min: 20, max: 160 }), rows: fc.integer({ min: 5, max: 50 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.nat(),
        fc.array(resize, { maxLength: 4 }),
        async (which, cutSeed, resizes) => {
          const recording = recordings[which]!;
          const events: RecordedEvent[] = [...recording.events];
          for (const r of resizes) events.splice(r.at % (events.length + 1), 0, { r: [r.cols, r.rows] });
          const cut = cutSeed % (events.length + 1);
          try {
            await cutAndCompare(recording, events, cut);
          } finally {
            for (const d of disposables.splice(0)) d.dispose();
          }
        },
      ),
      { seed: 13, numRuns: 60 },
    );
  }, 120_000);
});
