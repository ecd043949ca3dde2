// The running turn of an ACP chat (one at a time) and its clocks: a watchdog that reports a turn silent
// past the time-out, and after Stop a grace for the agent to end the turn before it is ended here.

export type StoppedBy = "learner" | "timeout";

export interface TurnListener {
  /** The agent sent nothing for the time-out and nobody has pressed Stop. */
  silent(): void;
  /** The turn is over: its turn_end payload. */
  ended(payload: Record<string, unknown>): void;
}

export class TurnKeeper {
  private turn: Promise<unknown> | undefined;
  /** The running turn's watchdog: the time-out counts from the agent's last event. */
  private watchdog: NodeJS.Timeout | undefined;
  /** Set when Stop was pressed: the agent gets the grace to end the turn itself. */
  private grace: { by: StoppedBy; timer: NodeJS.Timeout } | undefined;

  constructor(
    readonly timeoutMs: number,
    private readonly graceMs: number,
    private readonly listener: TurnListener,
  ) {}

  get running(): boolean {
    return this.turn !== undefined;
  }

  /** Stop was pressed on the running turn. */
  get stopping(): boolean {
    return this.grace !== undefined;
  }

  begin(turn: Promise<unknown>): void {
    this.turn = turn;
    this.armWatchdog();
  }

  /** The agent sent an event: the time-out counts from now (not once Stop was pressed). */
  alive(): void {
    if (this.turn && !this.grace) this.armWatchdog();
  }

  /** Stop: unless the agent ends the turn within the grace (one that hangs on its provider), it is ended here. */
  stop(by: StoppedBy): void {
    const turn = this.turn;
    if (!turn || this.grace) return;
    this.grace = {
      by,
      timer: setTimeout(() => this.end(turn, { stopReason: "cancelled", stoppedBy: by, agentIgnoredStop: true }), this.graceMs),
    };
  }

  /** Ends the running turn once (the agent's answer, an error, or Stop without an answer). */
  end(turn: Promise<unknown>, payload: Record<string, unknown>): void {
    if (this.turn !== turn) return; // already ended here; the agent's late answer changes nothing
    const stoppedBy = this.grace?.by;
    this.drop();
    this.listener.ended(payload.stopReason === "cancelled" && stoppedBy && !payload.stoppedBy ? { ...payload, stoppedBy } : payload);
  }

  /** Forgets the turn without a turn_end (the agent is gone). */
  drop(): void {
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    if (this.grace) clearTimeout(this.grace.timer);
    this.grace = undefined;
    this.turn = undefined;
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const turn = this.turn;
    this.watchdog = setTimeout(() => {
      if (this.turn !== turn || this.grace) return;
      this.listener.silent();
    }, this.timeoutMs);
  }
}
