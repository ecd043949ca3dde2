// Runs a pty at the pace its flow controller decides: pauses and resumes it, and, while it is paused,
// wakes up when a silent viewer is due to be stalled (nothing else would ask the controller again).
import type { FlowController } from "./flow-control.ts";

/** The part of a pty the pacer drives. */
export interface Pausable {
  readonly paused: boolean;
  pause(): void;
  resume(): void;
}

export class FlowPacer {
  private stallTimer: NodeJS.Timeout | undefined;
  private stallTimerDue = 0;

  /** `running`: false once the session is closed or its program has exited (then nothing is paced). */
  constructor(
    private readonly flow: FlowController,
    private readonly pty: Pausable,
    private readonly running: () => boolean,
  ) {}

  /** Asks the controller again after anything it counts has changed. */
  update(): void {
    if (!this.running()) return;
    if (!this.pty.paused && this.flow.shouldPause()) this.pty.pause();
    else if (this.pty.paused && this.flow.shouldResume()) this.pty.resume();
    this.scheduleStallCheck();
  }

  stop(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }

  private scheduleStallCheck(): void {
    const wait = this.pty.paused ? this.flow.msUntilNextStall() : undefined;
    if (wait === undefined) {
      this.stop();
      return;
    }
    const due = Date.now() + wait;
    if (this.stallTimer && this.stallTimerDue <= due) return;
    this.stop();
    this.stallTimerDue = due;
    this.stallTimer = setTimeout(() => {
      this.stallTimer = undefined;
      this.update();
    }, wait + 1);
  }
}
