// Table tests for the pure flow-control decision (no pty, injected clock).
import { describe, expect, it } from "vitest";
import { FlowControl, FlowController } from "./flow-control.ts";

const HIGH = FlowControl.HIGH_WATERMARK_CHARS;
const LOW = FlowControl.LOW_WATERMARK_CHARS;
const STALL = FlowControl.STALL_MS;
const LAG = FlowControl.MAX_LAG_CHARS;
const MIRROR_HIGH = FlowControl.REQUIRED_HIGH_WATERMARK_CHARS;
const MIRROR_LOW = FlowControl.REQUIRED_LOW_WATERMARK_CHARS;

type Step =
  | { at?: number; mirror: true }
  | { at?: number; sent: string; chars: number }
  | { at?: number; replay: string; chars: number }
  | { at?: number; acked: string; chars: number }
  | { at?: number; remove: string };

interface Case {
  name: string;
  steps: Step[];
  /** Time (ms) at which the expectations are checked; defaults to the last step's time. */
  checkAt?: number;
  pause: boolean;
  resume: boolean;
  stalled?: string[];
  unacked?: Record<string, number>;
  outstanding?: Record<string, number>;
  nextStallInMs?: number | undefined;
}

const mirror: Step = { at: 0, mirror: true };

const cases: Case[] = [
  // One consumer: VS Code's rule.
  { name: "no consumers: nothing to pause for", steps: [], pause: false, resume: true },
  {
    name: "below the low watermark: run",
    steps: [{ sent: "laptop", chars: LOW - 1 }],
    pause: false,
    resume: true,
    unacked: { laptop: LOW - 1 },
  },
  {
    name: "exactly at the low watermark: neither pause nor resume (hysteresis band)",
    steps: [{ sent: "laptop", chars: LOW }],
    pause: false,
    resume: false,
  },
  { name: "exactly at the high watermark: not yet paused", steps: [{ sent: "laptop", chars: HIGH }], pause: false, resume: false },
  {
    name: "one char above the high watermark: pause, and a stall is on its way",
    steps: [{ sent: "laptop", chars: HIGH + 1 }],
    pause: true,
    resume: false,
    nextStallInMs: STALL,
  },
  {
    name: "acked back into the band: still not resumable",
    steps: [
      { sent: "laptop", chars: HIGH + 1 },
      { acked: "laptop", chars: HIGH + 1 - LOW },
    ],
    pause: false,
    resume: false,
    unacked: { laptop: LOW },
  },
  {
    name: "acked below the low watermark: resume, no stall pending",
    steps: [
      { sent: "laptop", chars: HIGH + 1 },
      { acked: "laptop", chars: HIGH + 2 - LOW },
    ],
    pause: false,
    resume: true,
    nextStallInMs: undefined,
  },
  {
    name: "a viewer keeping ACK_EVERY_CHARS - 1 unacknowledged lets the pty resume",
    steps: [{ sent: "laptop", chars: FlowControl.ACK_EVERY_CHARS - 1 }],
    pause: false,
    resume: true,
  },
  {
    name: "over-ack clamps to zero",
    steps: [
      { sent: "laptop", chars: 10 },
      { acked: "laptop", chars: 1_000 },
    ],
    pause: false,
    resume: true,
    unacked: { laptop: 0 },
  },
  {
    name: "negative, zero and NaN counts are ignored",
    steps: [
      { sent: "laptop", chars: 100 },
      { sent: "laptop", chars: -50 },
      { replay: "laptop", chars: Number.NaN },
      { acked: "laptop", chars: -50 },
      { acked: "laptop", chars: Number.NaN },
      { acked: "laptop", chars: 0 },
    ],
    pause: false,
    resume: true,
    unacked: { laptop: 100 },
    outstanding: { laptop: 100 },
  },
  {
    name: "ack for an unknown viewer is ignored and does not register it",
    steps: [{ acked: "ghost", chars: 10 }],
    pause: false,
    resume: true,
    unacked: { ghost: 0 },
  },

  // The mirror (required): its backlog alone pauses, at its own wider watermarks; it never stalls.
  {
    name: "the mirror behind pauses even when a viewer keeps up",
    steps: [mirror, { sent: "mirror", chars: MIRROR_HIGH + 1 }, { sent: "laptop", chars: 10 }],
    pause: true,
    resume: false,
  },
  {
    name: "the mirror past a viewer's high watermark but under its own does not pause",
    steps: [mirror, { sent: "mirror", chars: HIGH + 1 }, { sent: "laptop", chars: 10 }],
    pause: false,
    resume: true,
  },
  {
    name: "the mirror in its band blocks resume",
    steps: [mirror, { sent: "mirror", chars: MIRROR_LOW }, { sent: "laptop", chars: 10 }],
    pause: false,
    resume: false,
  },
  {
    name: "the mirror holds the pause beyond STALL_MS: it is never stalled",
    steps: [mirror, { sent: "mirror", chars: MIRROR_HIGH + 1 }],
    checkAt: STALL * 10,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: undefined,
  },
  {
    name: "only the mirror, caught up: run at its pace",
    steps: [mirror, { sent: "mirror", chars: MIRROR_LOW - 1 }],
    pause: false,
    resume: true,
  },

  // Several viewers: output runs at the pace of the fastest counted viewer.
  {
    name: "one viewer behind, another keeping up: run",
    steps: [mirror, { sent: "laptop", chars: 10 }, { sent: "phone", chars: HIGH + 1 }],
    pause: false,
    resume: true,
  },
  {
    name: "every viewer behind: pause",
    steps: [mirror, { sent: "laptop", chars: HIGH + 1 }, { sent: "phone", chars: HIGH + 1 }],
    pause: true,
    resume: false,
  },
  {
    name: "paused with both behind: the first to catch up resumes it",
    steps: [mirror, { sent: "laptop", chars: HIGH + 1 }, { sent: "phone", chars: HIGH + 1 }, { acked: "laptop", chars: HIGH + 1 }],
    pause: false,
    resume: true,
  },
  {
    name: "both in the band: no resume yet",
    steps: [mirror, { sent: "laptop", chars: LOW }, { sent: "phone", chars: LOW + 1 }],
    pause: false,
    resume: false,
  },

  // Stalls.
  {
    name: "the only viewer behind just short of STALL_MS still holds the pause",
    steps: [mirror, { at: 0, sent: "phone", chars: HIGH + 1 }],
    checkAt: STALL - 1,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: 1,
  },
  {
    name: "the only viewer behind for STALL_MS is stalled: output runs at the mirror's pace",
    steps: [mirror, { at: 0, sent: "phone", chars: HIGH + 1 }],
    checkAt: STALL,
    pause: false,
    resume: true,
    stalled: ["phone"],
    nextStallInMs: undefined,
  },
  // A viewer that keeps acknowledging is slow, not gone: only STALL_MS of silence stalls it.
  {
    name: "a viewer that hovers between low and high, acknowledging, is not stalled",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 500, acked: "phone", chars: 50_000 },
      { at: 1_000, sent: "phone", chars: 20_000 },
      { at: 1_500, acked: "phone", chars: 30_000 },
    ],
    checkAt: STALL,
    pause: false,
    resume: false,
    stalled: [],
    unacked: { phone: HIGH + 1 - 60_000 },
  },
  {
    name: "the only viewer behind for many STALL_MS, acknowledging steadily, still holds the pause",
    steps: [
      mirror,
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 1_500, acked: "phone", chars: 50_000 },
      { at: 1_600, sent: "phone", chars: 50_000 },
      { at: 3_000, acked: "phone", chars: 50_000 },
      { at: 3_100, sent: "phone", chars: 50_000 },
      { at: 4_500, acked: "phone", chars: 50_000 },
      { at: 4_600, sent: "phone", chars: 50_000 },
    ],
    checkAt: 4_600,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: STALL - 100,
  },
  {
    name: "a viewer behind and silent for STALL_MS after its last ack is stalled",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 50_001 },
      { at: 1_500, acked: "phone", chars: 50_000 },
    ],
    checkAt: 1_500 + STALL,
    pause: false,
    resume: true,
    stalled: ["phone"],
  },
  {
    name: "a viewer behind and silent just short of STALL_MS after its last ack is not stalled yet",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 50_001 },
      { at: 1_500, acked: "phone", chars: 50_000 },
    ],
    checkAt: 1_500 + STALL - 1,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: 1,
  },
  {
    name: "acks that pay a replay are progress too",
    steps: [
      { at: 0, replay: "phone", chars: 200_000 },
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 1_500, acked: "phone", chars: 100_000 },
    ],
    checkAt: 1_500 + STALL - 1,
    pause: true,
    resume: false,
    stalled: [],
    outstanding: { phone: HIGH + 100_001 },
  },
  {
    name: "a stalled viewer's acks that leave it above the low watermark do not end the stall",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: STALL + 10, acked: "phone", chars: 50_000 },
      { at: STALL + 20, acked: "phone", chars: 50_000 },
    ],
    pause: false,
    resume: true,
    stalled: ["phone"],
    unacked: { phone: HIGH + 1 - 100_000 },
  },
  {
    name: "a viewer more than MAX_LAG_CHARS behind is stalled at once",
    steps: [mirror, { at: 0, sent: "laptop", chars: 10 }, { at: 0, sent: "phone", chars: LAG + 1 }],
    checkAt: 0,
    pause: false,
    resume: true,
    stalled: ["phone"],
  },
  {
    name: "a lagging viewer stays stalled while it acks part of its backlog",
    steps: [
      { at: 0, sent: "phone", chars: LAG + 1 },
      { at: 0, acked: "phone", chars: LAG - HIGH },
    ],
    checkAt: 0,
    pause: false,
    resume: true,
    stalled: ["phone"],
  },
  {
    name: "a stalled viewer that acks below low is no longer stalled and counts again",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: STALL + 10, acked: "phone", chars: HIGH + 1 },
      { at: STALL + 20, sent: "phone", chars: HIGH + 1 },
    ],
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: STALL,
  },
  {
    name: "the earliest of two viewers on their way to a stall is reported",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 700, sent: "tablet", chars: HIGH + 1 },
    ],
    checkAt: 1_000,
    pause: true,
    resume: false,
    nextStallInMs: STALL - 1_000,
  },
  {
    name: "removing the only viewer that held the pause releases it",
    steps: [mirror, { sent: "phone", chars: HIGH + 1 }, { remove: "phone" }],
    pause: false,
    resume: true,
    unacked: { phone: 0 },
  },

  // Replays are owed, not counted.
  {
    name: "a replay larger than the lag limit neither pauses nor stalls",
    steps: [mirror, { replay: "phone", chars: LAG * 3 }],
    pause: false,
    resume: true,
    stalled: [],
    unacked: { phone: 0 },
    outstanding: { phone: LAG * 3 },
  },
  {
    name: "acks pay the replay first: live output behind it stays unacknowledged",
    steps: [
      { replay: "phone", chars: 1_000_000 },
      { sent: "phone", chars: HIGH + 1 },
      { acked: "phone", chars: 1_000_000 },
    ],
    pause: true,
    resume: false,
    unacked: { phone: HIGH + 1 },
    outstanding: { phone: HIGH + 1 },
  },
  {
    name: "acks beyond the replay pay live output",
    steps: [
      { replay: "phone", chars: 1_000 },
      { sent: "phone", chars: 3_000 },
      { acked: "phone", chars: 2_500 },
    ],
    pause: false,
    resume: true,
    unacked: { phone: 1_500 },
    outstanding: { phone: 1_500 },
  },
];

describe("FlowControl constants", () => {
  it("keeps its invariants", () => {
    expect(FlowControl.LOW_WATERMARK_CHARS).toBeLessThan(FlowControl.HIGH_WATERMARK_CHARS);
    expect(FlowControl.ACK_EVERY_CHARS).toBeLessThanOrEqual(FlowControl.LOW_WATERMARK_CHARS);
    expect(FlowControl.MAX_LAG_CHARS).toBeGreaterThan(FlowControl.HIGH_WATERMARK_CHARS);
    expect(FlowControl.REQUIRED_LOW_WATERMARK_CHARS).toBeLessThan(FlowControl.REQUIRED_HIGH_WATERMARK_CHARS);
    expect(FlowControl.REQUIRED_HIGH_WATERMARK_CHARS).toBeGreaterThanOrEqual(FlowControl.HIGH_WATERMARK_CHARS);
    expect(FlowControl.REQUIRED_HIGH_WATERMARK_CHARS).toBeLessThan(50_000_000); // xterm's discard limit
    expect(FlowControl.STALL_MS).toBeGreaterThan(0);
  });

  it("refuses inconsistent limits", () => {
    const limits = {
      HIGH_WATERMARK_CHARS: 10,
      LOW_WATERMARK_CHARS: 5,
      REQUIRED_HIGH_WATERMARK_CHARS: 40,
      REQUIRED_LOW_WATERMARK_CHARS: 20,
      STALL_MS: 1,
      MAX_LAG_CHARS: 100,
    };
    expect(() => new FlowController(() => 0, { ...limits, LOW_WATERMARK_CHARS: 20 })).toThrow(/low watermark/);
    expect(() => new FlowController(() => 0, { ...limits, REQUIRED_LOW_WATERMARK_CHARS: 50 })).toThrow(/low watermark/);
    expect(() => new FlowController(() => 0, { ...limits, MAX_LAG_CHARS: 5 })).toThrow(/lag limit/);
  });
});

describe("FlowController", () => {
  it.each(cases)("$name", (c) => {
    let now = 0;
    const flow = new FlowController(() => now);
    for (const step of c.steps) {
      now = step.at ?? now;
      if ("mirror" in step) flow.add("mirror", { required: true });
      else if ("sent" in step) flow.sent(step.sent, step.chars);
      else if ("replay" in step) flow.sentReplay(step.replay, step.chars);
      else if ("acked" in step) flow.acked(step.acked, step.chars);
      else flow.remove(step.remove);
    }
    now = c.checkAt ?? now;
    expect(flow.shouldPause()).toBe(c.pause);
    expect(flow.shouldResume()).toBe(c.resume);
    if (c.stalled) {
      const ids = ["laptop", "phone", "tablet", "mirror"].filter((id) => flow.isStalled(id));
      expect(ids).toEqual(c.stalled);
    }
    for (const [id, chars] of Object.entries(c.unacked ?? {})) expect(flow.unackedChars(id)).toBe(chars);
    for (const [id, chars] of Object.entries(c.outstanding ?? {})) expect(flow.outstandingChars(id)).toBe(chars);
    if ("nextStallInMs" in c) expect(flow.msUntilNextStall()).toBe(c.nextStallInMs);
  });

  it("never says pause and resume at once", () => {
    let now = 0;
    const flow = new FlowController(() => now);
    flow.add("mirror", { required: true });
    for (let step = 0; step < 400; step++) {
      flow.sent(step % 3 === 0 ? "mirror" : step % 3 === 1 ? "laptop" : "phone", 997 * (step % 7));
      if (step % 5 === 0) flow.acked("laptop", 4_000);
      expect(flow.shouldPause() && flow.shouldResume()).toBe(false);
      now += 13;
    }
  });

  it("sums what is outstanding across consumers", () => {
    const flow = new FlowController(() => 0);
    flow.add("mirror", { required: true });
    flow.sent("mirror", 300);
    flow.sent("laptop", 200);
    flow.sentReplay("laptop", 1_000);
    flow.acked("laptop", 1_050);
    expect(flow.totalOutstandingChars).toBe(450);
    expect(flow.has("laptop")).toBe(true);
    flow.remove("laptop");
    expect(flow.has("laptop")).toBe(false);
    expect(flow.totalOutstandingChars).toBe(300);
  });
});
