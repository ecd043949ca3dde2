// Pure mappers from stored rows to what the API and the pages show.
import type { StudySession } from "../db/generated/client.ts";
import { parseSummary, type Summary } from "../../common/study/summary.ts";
import { timerStateOf, type TimerState } from "../../common/study/timer.ts";
import { clockTime, explainEnd, isContinuable } from "./end-reasons.ts";
import { pausedKeptUntil } from "./session-lifecycle.ts";
import type { Verdict } from "./verdict.ts";

export interface SessionView {
  readonly id: string;
  readonly topic: string;
  readonly energy: number;
  readonly agent: string;
  readonly transport: string;
  /** "ending": End was written and the agent is being stopped (or the final write is being retried). */
  readonly status: "starting" | "live" | "ending" | "ended";
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  readonly exitCode: number | null;
  readonly explanation: string | null;
  readonly durationMinutes: number | null;
  readonly focusPlan: string;
  readonly focusMinutes: number;
  readonly breakMinutes: number;
  readonly winCount: number;
  readonly struggleCount: number;
  readonly summary: Summary | null;
  readonly owner: { readonly host: string | null; readonly url: string | null; readonly pid: number | null };
  readonly muxSession: string | null;
  readonly hasTranscript: boolean;
  /** The focus timer as stored (start, pauses, nudges): every device reads the same time from it. */
  readonly timer: TimerState;
  /** While paused: until when the session is kept with no page open (ISO time); else null. */
  readonly keptUntil: string | null;
  /** The agent's last output lines, when it exited or could not start (for the learner to read). */
  readonly lastLines: readonly string[];
  /** The session this one continues, if any. */
  readonly continuedFromId: string | null;
  /** It ended without the learner's End: "Continue this session" is offered. */
  readonly canContinue: boolean;
}

export type SessionPhase = "idle" | "starting" | "focus" | "ending" | "ended";

export type AttachInfo =
  | {
      readonly transport: "pty";
      readonly sessionId: string;
      /** socket.io event that attaches a viewer */ readonly event: "terminal:attach";
    }
  | { readonly transport: "acp"; readonly sessionId: string; readonly event: "acp:attach" }
  /** A CLI session in tmux: "Open in browser" attaches a terminal running `tmux attach`. */
  | { readonly transport: "tmux"; readonly sessionId: string; readonly event: "terminal:attach" };

export interface VerdictView {
  readonly kind: Verdict["kind"];
  readonly rule: string;
  /** A sentence for the learner when the session is not attachable from here. */
  readonly notice: string | null;
}

export interface SessionStateView {
  readonly state: SessionPhase;
  readonly session: SessionView | null;
  readonly verdict: VerdictView | null;
  readonly attach: AttachInfo | null;
  readonly lastEnded: SessionView | null;
}

export interface ViewContext {
  readonly agentLabel: (name: string) => string;
  readonly graceMinutes: number;
  /** One minute of a focus plan in ms (60,000; tests shorten it). */
  readonly minuteMs?: number;
  /** The keeper's windows, for "kept until" (session-lifecycle.ts). */
  readonly keep?: { readonly graceMs: number; readonly pauseKeepMs: number };
}

/** A stored row; the transcript may be left out of the read (session-store.ts, SessionRow). */
export type ViewRow = Omit<StudySession, "transcript"> & { readonly transcript?: string | null };

export function toSessionView(row: ViewRow, ctx: ViewContext): SessionView {
  const ended = row.endedAt;
  const status = ended ? "ended" : row.status === "starting" || row.status === "ending" ? row.status : "live";
  const keptUntil = !ended && ctx.keep ? pausedKeptUntil(row.pausedAt, ctx.keep.pauseKeepMs, ctx.keep.graceMs) : null;
  return {
    id: row.id,
    topic: row.topic,
    energy: row.energy,
    agent: row.agent,
    transport: row.transport,
    status,
    startedAt: row.startedAt.toISOString(),
    endedAt: ended ? ended.toISOString() : null,
    endReason: row.endReason,
    exitCode: row.exitCode,
    explanation: ended
      ? explainEnd({
          reason: row.endReason,
          at: clockTime(ended),
          agentLabel: ctx.agentLabel(row.agent),
          exitCode: row.exitCode,
          detail: row.endDetail,
          graceMinutes: ctx.graceMinutes,
          hasOutput: row.endOutput !== null,
        })
      : null,
    durationMinutes: ended ? Math.max(0, Math.round((ended.getTime() - row.startedAt.getTime()) / 60_000)) : null,
    focusPlan: row.focusPlan,
    focusMinutes: row.focusMinutes,
    breakMinutes: row.breakMinutes,
    winCount: row.winCount,
    struggleCount: row.struggleCount,
    summary: parseSummary(row.summary),
    owner: { host: row.ownerHost, url: row.ownerUrl, pid: row.ownerPid },
    muxSession: row.muxSession,
    hasTranscript: row.transcript !== undefined ? row.transcript !== null && row.transcript.length > 0 : row.transcriptAt !== null,
    timer: timerStateOf(row, ctx.minuteMs),
    keptUntil: keptUntil ? keptUntil.toISOString() : null,
    lastLines: parseLines(row.endOutput),
    continuedFromId: row.continuedFromId,
    canContinue: ended !== null && isContinuable(row.endReason),
  };
}

function parseLines(text: string | null): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/** What the learner is told about a session this page cannot attach to. */
export function verdictNotice(verdict: Verdict, view: SessionView): string | null {
  switch (verdict.kind) {
    case "live-elsewhere":
      if (verdict.via === "tmux") {
        return `It runs in tmux (session ${verdict.muxSession ?? "unnamed"}): open it in the browser here, or reattach in a terminal with \`studyloop study --resume\`.`;
      }
      return `It is live on ${verdict.ownerHost ?? "another StudyLoop server"} (${verdict.ownerUrl ?? "address unknown"}): open it there, or end it here.`;
    case "unknown":
      return `StudyLoop cannot tell whether the server running "${view.topic}" is still up (${verdict.error}), so it is treated as live. You can end it here.`;
    case "starting":
      return "The tutor is starting…";
    default:
      return null;
  }
}
