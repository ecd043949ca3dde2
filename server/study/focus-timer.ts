// The focus timer's writes: pause, resume, answering a break nudge, and recording each nudge once
// when its time comes (checked every second for the sessions this server runs); it also says on the
// bus when a nudge came due and when a break taken for one is over (the notifier listens there). The decisions are
// in timer.ts; this file only reads rows, asks it, and writes conditionally so two devices (or two
// servers) acting at once cannot both win.
import type { Db } from "../db/client.ts";
import type { StudySession } from "../db/generated/client.ts";
import { conflict, notFound } from "../errors/refusal.ts";
import type { SessionReader } from "../sessions/ports.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import type { SessionView } from "../sessions/session-view.ts";
import { answerNudges, readTimer, recordNudges, timerStateOf, type TimerState } from "../../common/study/timer.ts";
import { breakOver } from "./break-over.ts";

/** How often due nudges are looked for: a nudge shows within a second of its time. */
const NUDGE_CHECK_MS = 1_000;
const RACED = "The timer changed on another device at the same moment: look at it again and retry.";

export type TimerAction =
  { action: "pause" } | { action: "resume" } | { action: "continue"; nudge?: number } | { action: "break"; nudge?: number };

export class FocusTimer {
  private interval: NodeJS.Timeout | undefined;
  private checking = false;
  /** Per session, the nudge whose break was last said to be over. */
  private readonly breaksOver = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionReader,
    private readonly events: SessionEvents,
    private readonly minuteMs: number,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.interval ??= setInterval(
      () => void this.recordDue().catch((e: unknown) => this.log(`Could not check break nudges: ${String(e)}`)),
      NUDGE_CHECK_MS,
    );
    this.interval.unref();
  }

  stop(): void {
    if (this.interval) clearInterval(this.interval);
    this.interval = undefined;
  }

  /** Pause, resume, or answer the open nudge ("break" also pauses) on the live session. */
  async apply(command: TimerAction, now: Date = new Date()): Promise<SessionView> {
    const row = await this.openRow();
    const t = timerStateOf(row, this.minuteMs);
    const reading = readTimer(t, now.getTime());
    switch (command.action) {
      case "pause":
      case "break": {
        // Taking a break answers the nudge that asked for it (and any that came due this second).
        const recorded = recordNudges(t.nudges, reading.due, now);
        const answered = answerNudges(recorded, "break", now, command.action === "break" ? command.nudge : undefined);
        if (reading.paused && !answered) {
          throw conflict(
            command.action === "pause"
              ? "The timer is already paused: resume it when you are back."
              : "There is no break nudge waiting for an answer.",
          );
        }
        await this.write(row, { ...(reading.paused ? {} : { pausedAt: now }), nudgesShown: JSON.stringify(answered ?? recorded) }, RACED);
        break;
      }
      case "resume": {
        if (!reading.paused || !row.pausedAt) throw conflict("The timer is not paused.");
        const pausedMs = row.pausedMs + Math.max(0, now.getTime() - row.pausedAt.getTime());
        await this.write(row, { pausedAt: null, pausedMs }, RACED);
        break;
      }
      case "continue": {
        const answered = answerNudges(t.nudges, "continue", now, command.nudge);
        if (!answered) throw conflict("There is no break nudge waiting for an answer.");
        await this.write(row, { nudgesShown: JSON.stringify(answered) }, RACED);
        break;
      }
    }
    const kind = command.action === "pause" || command.action === "break" ? "paused" : command.action === "resume" ? "resumed" : null;
    if (kind) this.events.study(kind, row.id, { action: command.action }, now);
    else this.events.emit("changed");
    const found = await this.sessions.session(row.id);
    if (!found) throw notFound("The session is gone.");
    return found.view;
  }

  /**
   * Records each nudge whose time has come, once, for the live sessions this server runs ("break-due"
   * on the bus), and says when a break taken for one is over ("break-over", once per nudge).
   */
  async recordDue(now: Date = new Date()): Promise<number> {
    if (this.checking) return 0;
    this.checking = true;
    try {
      const rows = await this.db.studySession.findMany({
        where: { endedAt: null, status: "live", ownerInstance: this.sessions.instanceId },
      });
      let recorded = 0;
      for (const row of rows) {
        const t = timerStateOf(row, this.minuteMs);
        if (row.pausedAt) {
          this.sayBreakOver(row.id, t, now);
          continue;
        }
        const due = readTimer(t, now.getTime()).due;
        if (due.length === 0) continue;
        const next = recordNudges(t.nudges, due, now);
        // Only if nobody changed the nudges or paused meanwhile: each nudge is recorded once.
        if (
          !(await this.sessions.writes.updateTimer(
            { id: row.id, pausedAt: null, nudgesShown: row.nudgesShown },
            { nudgesShown: JSON.stringify(next) },
          ))
        )
          continue;
        recorded++;
        const shown = due[due.length - 1]!;
        this.events.study(
          "break-due",
          row.id,
          { nudges: due.length, n: shown.n, focusMinute: shown.focusMinute, breakMinutes: shown.breakMinutes },
          now,
        );
      }
      for (const id of this.breaksOver.keys()) if (!rows.some((row) => row.id === id)) this.breaksOver.delete(id);
      return recorded;
    } finally {
      this.checking = false;
    }
  }

  /**
   * "break-over" once per nudge. Remembered in memory, not on the row: the sessions checked are this
   * process's own, so a restart has ended them; the notifier's log keeps its notice to one anyway.
   */
  private sayBreakOver(sessionId: string, t: TimerState, now: Date): void {
    const over = breakOver(t, now.getTime());
    if (!over) return;
    if (this.breaksOver.get(sessionId) === over.n) return;
    this.breaksOver.set(sessionId, over.n);
    this.events.study("break-over", sessionId, { n: over.n, breakMinutes: over.breakMinutes }, now);
  }

  private async openRow(): Promise<StudySession> {
    const state = await this.sessions.state();
    const id = state.session && state.session.status !== "ended" ? state.session.id : null;
    if (!id) throw conflict("No study session is live: start one to use the focus timer.");
    const row = await this.db.studySession.findUnique({ where: { id } });
    if (!row || row.endedAt) throw conflict("The session has ended: the timer has stopped.");
    return row;
  }

  /** One conditional write: the row must still be as it was read (not ended, same pause, same nudges). */
  private async write(
    row: StudySession,
    data: { pausedAt?: Date | null; pausedMs?: number; nudgesShown?: string },
    raced: string,
  ): Promise<void> {
    if (!(await this.sessions.writes.updateTimer(row, data))) throw conflict(raced);
  }
}
