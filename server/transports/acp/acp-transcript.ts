// A chat's plain text: what the transcript column keeps and the history search reads. Pure.
import type { AcpEventRecord } from "./acp-events.ts";

/** Plain text of a conversation, for the transcript column and the history search. */
export function renderTranscript(events: readonly AcpEventRecord[]): string {
  const out: string[] = [];
  let speaking: "agent" | "thought" | null = null;
  for (const e of events) {
    const p = e.payload;
    if (e.kind === "agent_message_chunk" || e.kind === "agent_thought_chunk") {
      const who = e.kind === "agent_message_chunk" ? "agent" : "thought";
      if (speaking !== who) out.push(who === "agent" ? "\nTutor: " : "\n(thinking) ");
      speaking = who;
      out.push(String(p.text ?? ""));
      continue;
    }
    speaking = null;
    if (e.kind === "user_message") out.push(`\n\nYou: ${String(p.text ?? "")}\n`);
    else if (e.kind === "tool_call") out.push(`\n[tool] ${String(p.title ?? "")} (${String(p.status ?? "")})`);
    else if (e.kind === "permission_request") out.push(`\n[permission asked]`);
    else if (e.kind === "permission_outcome") out.push(`\n[permission: ${String(p.optionId ?? p.outcome)}]`);
    else if (e.kind === "notice") out.push(`\n[${String(p.text ?? "")}]`);
    else if (e.kind === "turn_end" && p.stopReason === "cancelled")
      out.push(`\n[stopped${p.stoppedBy === "timeout" ? " after the time-out" : " by the learner"}]`);
    else if (e.kind === "turn_end" && p.stopReason === "error") out.push(`\n[the tutor could not answer: ${String(p.error ?? "")}]`);
  }
  return out.join("").trim();
}
