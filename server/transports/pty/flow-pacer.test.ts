// FlowPacer against the real FlowController, a stand-in pty and fake timers: it pauses and resumes as
// the controller decides, and a viewer that goes silent while output is paused is stalled on time,
// which resumes the pty without any other event.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FlowControl, FlowController } from "./flow-control.ts";
import { FlowPacer, type Pausable } from "./flow-pacer.ts";

class StandInPty implements Pausable {
  paused = false;
  pauses = 0;
  resumes = 0;
  pause(): void {
    this.paused = true;
    this.pauses++;
  }
  resume(): void {
    this.paused = false;
    this.resumes++;
  }
}

describe("FlowPacer", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function pacer(running = () => true) {
    const flow = new FlowController(Date.now);
    const pty = new StandInPty();
    return { flow, pty, pacer: new FlowPacer(flow, pty, running) };
  }

  it("pauses above the high watermark and resumes once the viewer is back below the low one", () => {
    const { flow, pty, pacer: p } = pacer();
    flow.sent("laptop", FlowControl.HIGH_WATERMARK_CHARS + 1);
    p.update();
    expect(pty.paused).toBe(true);
    flow.acked("laptop", FlowControl.HIGH_WATERMARK_CHARS - FlowControl.LOW_WATERMARK_CHARS + 10);
    p.update();
    expect(pty.paused).toBe(false);
    expect([pty.pauses, pty.resumes]).toEqual([1, 1]);
    p.stop();
  });

  it("resumes on its own once a silent viewer is due to be stalled", () => {
    const { flow, pty, pacer: p } = pacer();
    flow.sent("phone", FlowControl.HIGH_WATERMARK_CHARS + 1);
    p.update();
    expect(pty.paused).toBe(true);
    vi.advanceTimersByTime(FlowControl.STALL_MS - 10);
    expect(pty.paused).toBe(true);
    vi.advanceTimersByTime(20);
    expect(flow.isStalled("phone")).toBe(true);
    expect(pty.paused).toBe(false);
    p.stop();
  });

  it("does nothing once the session is no longer running, and stop() cancels its wake-up", () => {
    let running = true;
    const { flow, pty, pacer: p } = pacer(() => running);
    flow.sent("phone", FlowControl.HIGH_WATERMARK_CHARS + 1);
    p.update();
    expect(pty.paused).toBe(true);
    p.stop();
    running = false;
    vi.advanceTimersByTime(FlowControl.STALL_MS * 2);
    p.update();
    expect([pty.pauses, pty.resumes]).toEqual([1, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
