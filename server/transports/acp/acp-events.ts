// What an ACP session records: one numbered event per thing that happened, stored as it arrives.
// Shared by the server (which stores and sends them) and the browser (which folds them into a chat).

export type AcpEventKind =
  | "agent_info"
  | "user_message"
  | "agent_message_chunk"
  | "agent_thought_chunk"
  | "tool_call"
  | "tool_call_update"
  | "plan"
  | "permission_request"
  | "permission_outcome"
  | "turn_end"
  | "notice";

export interface AcpEventRecord {
  readonly seq: number;
  readonly kind: AcpEventKind;
  readonly payload: Record<string, unknown>;
  readonly at: string;
}

export { ACP_LIMITS } from "../../../common/acp-limits.ts";
