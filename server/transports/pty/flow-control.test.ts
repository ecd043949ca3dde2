// Table tests for the pure flow-control decision (no pty, injected clock).
import { describe, expect, it } from "vitest";
import { FlowControl, FlowController } from "./flow-control.ts";

const HIGH = FlowControl.HIGH_WATERMARK_CHARS;
const LOW = FlowControl.LOW_WATERMARK_CHARS;
const STALL = FlowControl.STALL_MS;

type Step =
  | { at?: number; add: string; stallable: boolean }
  | { at?: number; sent: string; chars: number }
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
  nextStallInMs?: number | undefined;
}

const cases: Case[] = [
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
  {
    name: "exactly at the high watermark: not yet paused",
    steps: [{ sent: "laptop", chars: HIGH }],
    pause: false,
    resume: false,
  },
  {
    name: "one char above the high watermark: pause",
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
    name: "acked below the low watermark: resume",
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
      { acked: "laptop", chars: -50 },
      { acked: "laptop", chars: Number.NaN },
      { acked: "laptop", chars: 0 },
    ],
    pause: false,
    resume: true,
    unacked: { laptop: 100 },
  },
  {
    name: "ack for an unknown viewer is ignored and does not register it",
    steps: [{ acked: "ghost", chars: 10 }],
    pause: false,
    resume: true,
    unacked: { ghost: 0 },
  },
  {
    name: "the slowest counted viewer decides: one fast, one over high",
    steps: [
      { sent: "laptop", chars: 10 },
      { sent: "phone", chars: HIGH + 1 },
    ],
    pause: true,
    resume: false,
  },
  {
    name: "a viewer over high just short of STALL_MS still holds the pause",
    steps: [
      { at: 0, sent: "laptop", chars: 10 },
      { at: 0, sent: "phone", chars: HIGH + 1 },
    ],
    checkAt: STALL - 1,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: 1,
  },
  {
    name: "a viewer over high for STALL_MS is stalled and no longer holds the pause",
    steps: [
      { at: 0, sent: "laptop", chars: 10 },
      { at: 0, sent: "phone", chars: HIGH + 1 },
    ],
    checkAt: STALL,
    pause: false,
    resume: true,
    stalled: ["phone"],
    nextStallInMs: undefined,
  },
  {
    name: "a slow viewer that hovers between low and high after going over is still stalled",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 500, acked: "phone", chars: 50_000 },
      { at: 1_000, sent: "phone", chars: 20_000 },
      { at: 1_500, acked: "phone", chars: 30_000 },
    ],
    checkAt: STALL,
    pause: false,
    resume: true,
    stalled: ["phone"],
  },
  {
    name: "a stalled viewer that acks down below low rejoins (and counts again)",
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
    name: "a stalled viewer that acks only part of its backlog stays stalled",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: STALL + 10, acked: "phone", chars: HIGH - LOW },
    ],
    pause: false,
    resume: true,
    stalled: ["phone"],
  },
  {
    name: "a counted viewer in the band still blocks resume while a stalled one is ignored",
    steps: [
      { at: 0, sent: "phone", chars: HIGH + 1 },
      { at: 0, sent: "laptop", chars: LOW + 1 },
    ],
    checkAt: STALL,
    pause: false,
    resume: false,
    stalled: ["phone"],
  },
  {
    name: "the mirror (not stallable) holds the pause beyond STALL_MS",
    steps: [
      { at: 0, add: "mirror", stallable: false },
      { at: 0, sent: "mirror", chars: HIGH + 1 },
    ],
    checkAt: STALL * 10,
    pause: true,
    resume: false,
    stalled: [],
    nextStallInMs: undefined,
  },
  {
    name: "removing the viewer that held the pause releases it",
    steps: [
      { sent: "laptop", chars: 10 },
      { sent: "phone", chars: HIGH + 1 },
      { remove: "phone" },
    ],
    pause: false,
    resume: true,
    unacked: { phone: 0, laptop: 10 },
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
];

describe("FlowControl constants", () => {
  it("keeps its invariants", () => {
    expect(FlowControl.LOW_WATERMARK_CHARS).toBeLessThan(FlowControl.HIGH_WATERMARK_CHARS);
    expect(FlowControl.ACK_EVERY_CHARS).toBeLessThanOrEqual(FlowControl.LOW_WATERMARK_CHARS);
    expect(FlowControl.HIGH_WATERMARK_CHARS).toBeLessThan(50_000_000); // xterm's discard limit
    expect(FlowControl.STALL_MS).toBeGreaterThan(0);
  });

  it("refuses limits whose low watermark is above the high one", () => {
    expect(
      () => new FlowController(() => 0, { HIGH_WATERMARK_CHARS: 10, LOW_WATERMARK_CHARS: 20, STALL_MS: 1 }),
    ).toThrow(/low watermark/);
  });
});

describe("FlowController", () => {
  it.each(cases)("$name", (c) => {
    let now = 0;
    const flow = new FlowController(() => now);
    for (const step of c.steps) {
      now = step.at ?? now;
      if ("add" in step) flow.add(step.add, { stallable: step.stallable });
      else if ("sent" in step) flow.sent(step.sent, step.chars);
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
    if ("nextStallInMs" in c) expect(flow.msUntilNextStall()).toBe(c.nextStallInMs);
  });

  it("never pauses and resumes at once", () => {
    let now = 0;
    const flow = new FlowController(() => now);
    for (let chars = 0; chars <= HIGH + 10; chars += 997) {
      flow.sent("v", 997);
      expect(flow.shouldPause() && flow.shouldResume()).toBe(false);
      now += 1;
    }
  });

  it("sums what is outstanding across consumers", () => {
    const flow = new FlowController(() => 0);
    flow.add("mirror", { stallable: false });
    flow.sent("mirror", 300);
    flow.sent("laptop", 200);
    flow.acked("laptop", 50);
    expect(flow.totalUnackedChars).toBe(450);
    expect(flow.has("laptop")).toBe(true);
    flow.remove("laptop");
    expect(flow.has("laptop")).toBe(false);
    expect(flow.totalUnackedChars).toBe(300);
  });
});
