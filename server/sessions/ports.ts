// The narrow view of sessions the study loop needs (it never imports the session service).
import type { SessionStateView, SessionView } from "./session-view.ts";
import type { Verdict } from "./verdict.ts";

export interface SessionReader {
  /** This server's instance id: the study loop records nudges only for sessions it runs. */
  readonly instanceId: string;
  state(): Promise<SessionStateView>;
  session(id: string): Promise<{ view: SessionView; verdict: Verdict | null; transcript: string | null } | null>;
  /** Reconciles every open row (the history never shows a dead session as live). */
  reconcileOpen(): Promise<unknown>;
  history(filter: { topic?: string; q?: string; take?: number }): Promise<SessionView[]>;
}
