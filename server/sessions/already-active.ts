// The refusal of a start while another session holds the live slot: what runs, since when, where,
// and what to do (rejoin it here, open it on its own server, wait for its end, or end it first).
import { verdictNotice } from "./session-view.ts";
import { SessionError } from "./session-errors.ts";
import { clockTime } from "./end-reasons.ts";
import { viewContext, viewOf, type SessionContext } from "./session-context.ts";
import type { JudgedRow } from "./reconciler.ts";

export function alreadyActive(ctx: SessionContext, holder: JudgedRow): SessionError {
  const view = viewOf(ctx, holder.row);
  const here = holder.verdict.kind === "live-here" || holder.verdict.kind === "starting";
  const where =
    view.status === "ending"
      ? "It is being ended: try again in a moment."
      : here
        ? "It runs on this server: open the Study page to rejoin it."
        : (verdictNotice(holder.verdict, view) ?? "");
  return new SessionError(
    "already-active",
    `A study session is already active: "${view.topic}" with ${viewContext(ctx).agentLabel(view.agent)} since ${clockTime(new Date(view.startedAt))}. ${where} End it first to start a new one.`.replace(
      "  ",
      " ",
    ),
    { session: view, canReattach: holder.verdict.kind === "live-here", verdict: holder.verdict.kind, ownerUrl: holder.row.ownerUrl },
  );
}
