import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AckPacer, AckPacerLimits } from "./ack-pacer";

describe("AckPacer", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("acks at once past the threshold, the rest on the next flush, and nothing when nothing was parsed", () => {
    const sent: number[] = [];
    const pacer = new AckPacer((chars) => sent.push(chars), 1_000);
    pacer.parsed(600);
    expect(sent).toEqual([]);
    pacer.parsed(500);
    expect(sent).toEqual([1_100]);
    pacer.parsed(7);
    vi.advanceTimersByTime(AckPacerLimits.ACK_FLUSH_MS);
    expect(sent).toEqual([1_100, 7]);
    vi.advanceTimersByTime(AckPacerLimits.ACK_FLUSH_MS * 5);
    expect(sent).toEqual([1_100, 7]);
    pacer.dispose();
  });

  it("sends nothing after it is disposed", () => {
    const sent: number[] = [];
    const pacer = new AckPacer((chars) => sent.push(chars), 1_000);
    pacer.parsed(10);
    pacer.dispose();
    vi.advanceTimersByTime(AckPacerLimits.ACK_FLUSH_MS * 3);
    expect(sent).toEqual([]);
  });
});
