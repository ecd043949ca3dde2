// Folds the numbered events of an ACP session into what the chat shows. Pure: the same fold serves
// the live chat, a reload's catch-up and the read-back of an ended session.
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";

export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";

export type ChatItem =
  | { readonly type: "learner"; readonly key: string; readonly text: string }
  | { readonly type: "agent"; readonly key: string; readonly text: string }
  | { readonly type: "thought"; readonly key: string; readonly text: string }
  | { readonly type: "tool"; readonly key: string; readonly toolCallId: string; readonly title: string; readonly kind: string; readonly status: ToolStatus }
  | {
      readonly type: "permission";
      readonly key: string;
      readonly requestId: string;
      readonly title: string;
      readonly options: readonly { optionId: string; name: string; kind: string }[];
      /** null while open; the chosen option's name, or "cancelled". */
      readonly answer: string | null;
    }
  | { readonly type: "notice"; readonly key: string; readonly text: string };

export interface PlanEntryView {
  readonly content: string;
  readonly status: string;
}

export interface Conversation {
  readonly items: readonly ChatItem[];
  readonly plan: readonly PlanEntryView[];
  /** A turn is running: the learner can press Stop, not send. */
  readonly busy: boolean;
  readonly lastSeq: number;
}

export const EMPTY_CONVERSATION: Conversation = { items: [], plan: [], busy: false, lastSeq: 0 };

export function foldEvents(start: Conversation, events: readonly AcpEventRecord[]): Conversation {
  let items = [...start.items];
  let plan = start.plan;
  let busy = start.busy;
  let lastSeq = start.lastSeq;
  for (const e of events) {
    if (e.seq <= lastSeq) continue; // a duplicate from a resume
    lastSeq = e.seq;
    const p = e.payload;
    const key = `e${e.seq}`;
    const last = items[items.length - 1];
    switch (e.kind) {
      case "user_message":
        items.push({ type: "learner", key, text: str(p.text) });
        busy = true;
        break;
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const type = e.kind === "agent_message_chunk" ? "agent" : "thought";
        if (last && last.type === type) items[items.length - 1] = { ...last, text: last.text + str(p.text) };
        else items.push({ type, key, text: str(p.text) });
        break;
      }
      case "tool_call":
        items.push({ type: "tool", key, toolCallId: str(p.toolCallId), title: str(p.title), kind: str(p.kind), status: toolStatus(p.status) });
        break;
      case "tool_call_update":
        items = items.map((item) =>
          item.type === "tool" && item.toolCallId === str(p.toolCallId)
            ? { ...item, ...(p.title ? { title: str(p.title) } : {}), ...(p.status ? { status: toolStatus(p.status) } : {}) }
            : item,
        );
        break;
      case "plan":
        plan = Array.isArray(p.entries) ? (p.entries as PlanEntryView[]).map((x) => ({ content: str(x.content), status: str(x.status) })) : [];
        break;
      case "permission_request": {
        const toolCall = (p.toolCall ?? {}) as { title?: unknown };
        items.push({
          type: "permission",
          key,
          requestId: str(p.requestId),
          title: str(toolCall.title) || "The tutor asks for permission",
          options: Array.isArray(p.options) ? (p.options as { optionId: string; name: string; kind: string }[]) : [],
          answer: null,
        });
        break;
      }
      case "permission_outcome":
        items = items.map((item) => {
          if (item.type !== "permission" || item.requestId !== str(p.requestId)) return item;
          const chosen = item.options.find((o) => o.optionId === p.optionId);
          return { ...item, answer: p.outcome === "selected" ? (chosen?.name ?? str(p.optionId)) : "cancelled" };
        });
        break;
      case "turn_end":
        busy = false;
        if (p.stopReason === "cancelled") items.push({ type: "notice", key, text: "Stopped." });
        else if (p.stopReason === "error") items.push({ type: "notice", key, text: `The tutor could not answer: ${str(p.error)}` });
        break;
      case "notice":
        items.push({ type: "notice", key, text: str(p.text) });
        break;
    }
  }
  return { items, plan, busy, lastSeq };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

function toolStatus(value: unknown): ToolStatus {
  return value === "in_progress" || value === "completed" || value === "failed" ? value : "pending";
}
