// ViewerStreams with the real FlowController and ReplayRing and a snapshot the test settles by hand:
// frames made while a viewer's snapshot is taken reach it after its replay, in order and counted; a
// viewer back within the ring gets only what it missed; a replay that cannot be made lets the viewer go.
import { describe, expect, it } from "vitest";
import { FlowController } from "./flow-control.ts";
import { ReplayRing } from "./replay-ring.ts";
import type { MirrorSnapshot } from "./mirror-contract.ts";
import type { OutputFrame, TerminalFrame } from "./terminal-frames.ts";
import { viewerKey, ViewerStreams } from "./viewer-streams.ts";

function streams() {
  const flow = new FlowController();
  const ring = new ReplayRing({ maxChars: 1_000, maxFrames: 100 });
  let seq = 0;
  let settle: { resolve: (s: MirrorSnapshot) => void; reject: (e: Error) => void } | undefined;
  const letGo: string[] = [];
  const s = new ViewerStreams({
    flow,
    ring,
    snapshot: () => new Promise<MirrorSnapshot>((resolve, reject) => (settle = { resolve, reject })),
    seq: () => seq,
    sizedFor: () => "laptop",
    paced: () => undefined,
    letGo: (id) => void (letGo.push(id), s.remove(id)),
    log: () => undefined,
  });
  const output = (data: string): OutputFrame => {
    const frame: OutputFrame = { type: "output", seq: ++seq, data };
    ring.push(frame);
    s.deliver(frame);
    return frame;
  };
  return { s, flow, output, letGo, settle: () => settle! };
}

describe("ViewerStreams", () => {
  it("sends what came while the snapshot was taken after the replay, in order, and counts it", async () => {
    const { s, flow, output, settle } = streams();
    output("before");
    const got: TerminalFrame[] = [];
    const { replayed } = s.attach("laptop", (f) => got.push(f), undefined);
    output("during 1");
    output("during 2");
    expect(got).toEqual([]);
    expect(flow.unackedChars(viewerKey("laptop"))).toBe("during 1during 2".length);
    settle().resolve({ data: "SCREEN", cols: 80, rows: 24 } as MirrorSnapshot);
    await replayed;
    expect(got.map((f) => (f.type === "replay" ? `replay@${f.seq}` : f.type === "output" ? f.data : f.type))).toEqual([
      "replay@1",
      "during 1",
      "during 2",
    ]);
    expect(got[0]).toMatchObject({ type: "replay", data: "SCREEN", sizedFor: "laptop" });
    output("after");
    expect(got.at(-1)).toMatchObject({ type: "output", data: "after", seq: 4 });
  });

  it("resumes a viewer from the ring with only the chunks after its seq", async () => {
    const { s, output } = streams();
    output("one");
    output("two");
    output("three");
    const got: TerminalFrame[] = [];
    await s.attach("phone", (f) => got.push(f), 1).replayed;
    expect(got.map((f) => (f.type === "output" ? f.data : f.type))).toEqual(["two", "three"]);
  });

  it("tells a viewer whose replay cannot be made, lets it go, and rejects", async () => {
    const { s, letGo, settle } = streams();
    const got: TerminalFrame[] = [];
    const { replayed } = s.attach("phone", (f) => got.push(f), undefined);
    settle().reject(new Error("the mirror's worker failed"));
    await expect(replayed).rejects.toThrow("the mirror's worker failed");
    expect(got).toEqual([{ type: "detached", seq: 0 }]);
    expect(letGo).toEqual(["phone"]);
    expect(s.get("phone")).toBeUndefined();
  });
});
