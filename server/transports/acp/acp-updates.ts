// Which of the agent's session/update notifications the chat shows, and as what event. Pure.
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AcpEventKind } from "./acp-events.ts";

export interface ChatEvent {
  readonly kind: AcpEventKind;
  readonly payload: Record<string, unknown>;
}

/** The event to record for an update, or undefined for one the learner does not need in the chat. */
export function chatEventOf(update: SessionUpdate): ChatEvent | undefined {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk":
      return {
        kind: update.sessionUpdate,
        payload: { text: update.content.type === "text" ? update.content.text : `[${update.content.type}]` },
      };
    case "tool_call":
      return {
        kind: "tool_call",
        payload: { toolCallId: update.toolCallId, title: update.title, kind: update.kind ?? "other", status: update.status ?? "pending" },
      };
    case "tool_call_update":
      return {
        kind: "tool_call_update",
        payload: {
          toolCallId: update.toolCallId,
          ...(update.title ? { title: update.title } : {}),
          ...(update.status ? { status: update.status } : {}),
        },
      };
    case "plan":
      return {
        kind: "plan",
        payload: { entries: update.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority })) },
      };
    default:
      return undefined; // modes, commands, usage: nothing the learner needs in the chat
  }
}
