// Folds the numbered events of an ACP session into what the chat shows. Pure: the same fold serves
// the live chat, a reload's catch-up and the read-back of an ended session.
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";

export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";

/** A photo or file sent with a learner's message (stored in the session folder). */
export interface AttachmentView {
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly kind: "image" | "resource";
}

export interface SignInMethodView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

export type ChatItem =
  | { readonly type: "learner"; readonly key: string; readonly text: string; readonly attachments: readonly AttachmentView[] }
  | { readonly type: "agent"; readonly key: string; readonly text: string; readonly stopped?: boolean }
  | { readonly type: "thought"; readonly key: string; readonly text: string }
  | {
      readonly type: "tool";
      readonly key: string;
      readonly toolCallId: string;
      readonly title: string;
      readonly kind: string;
      readonly status: ToolStatus;
    }
  | {
      readonly type: "permission";
      readonly key: string;
      readonly requestId: string;
      readonly title: string;
      readonly options: readonly { optionId: string; name: string; kind: string }[];
      /** null while open; the chosen option's name, or "cancelled". */
      readonly answer: string | null;
    }
  | { readonly type: "notice"; readonly key: string; readonly text: string }
  /** A turn Stop ended (the learner's Stop, or the time-out): kept in the conversation and the record. */
  | { readonly type: "stopped"; readonly key: string; readonly by: "learner" | "timeout"; readonly agentIgnoredStop: boolean }
  /** The agent refused the turn: its words, its details and how to sign in, shown once. */
  | {
      readonly type: "failure";
      readonly key: string;
      readonly text: string;
      readonly data?: string;
      readonly signInMethods: readonly SignInMethodView[];
      readonly signInHint?: string;
      /** What StudyLoop already did to sign in (said instead of the hint). */
      readonly tried?: string;
    };

/** What the agent said about itself when the chat started. */
export interface AgentInfoView {
  readonly name?: string;
  readonly image: boolean;
  readonly embeddedContext: boolean;
  readonly signInMethods: readonly SignInMethodView[];
}

/** The running turn: when it started and when the agent last sent anything (server times, ISO). */
export interface TurnView {
  readonly startedAt: string;
  readonly lastEventAt: string;
}

export interface PlanEntryView {
  readonly content: string;
  readonly status: string;
}

export interface Conversation {
  readonly items: readonly ChatItem[];
  readonly plan: readonly PlanEntryView[];
  /** A turn is running: the learner can press Stop, not send. */
  readonly busy: boolean;
  readonly turn: TurnView | null;
  readonly agent: AgentInfoView | null;
  /** The learner's last message, for Retry. */
  readonly lastPrompt: { readonly text: string; readonly attachments: readonly string[] } | null;
  readonly lastSeq: number;
}

export const EMPTY_CONVERSATION: Conversation = { items: [], plan: [], busy: false, turn: null, agent: null, lastPrompt: null, lastSeq: 0 };

export function foldEvents(start: Conversation, events: readonly AcpEventRecord[]): Conversation {
  let items = [...start.items];
  let plan = start.plan;
  let busy = start.busy;
  let turn = start.turn;
  let agent = start.agent;
  let lastPrompt = start.lastPrompt;
  let lastSeq = start.lastSeq;
  for (const e of events) {
    if (e.seq <= lastSeq) continue; // a duplicate from a resume
    lastSeq = e.seq;
    const p = e.payload;
    const key = `e${e.seq}`;
    const last = items[items.length - 1];
    if (turn) turn = { ...turn, lastEventAt: e.at };
    switch (e.kind) {
      case "agent_info": {
        const prompt = (p.prompt ?? {}) as { image?: unknown; embeddedContext?: unknown };
        agent = {
          ...(typeof p.name === "string" ? { name: p.name } : {}),
          image: prompt.image === true,
          embeddedContext: prompt.embeddedContext === true,
          signInMethods: signInMethods(p.signInMethods),
        };
        break;
      }
      case "user_message": {
        const attachments = Array.isArray(p.attachments) ? (p.attachments as AttachmentView[]) : [];
        items.push({ type: "learner", key, text: str(p.text), attachments });
        lastPrompt = { text: str(p.text), attachments: attachments.map((a) => a.name) };
        busy = true;
        turn = { startedAt: e.at, lastEventAt: e.at };
        break;
      }
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const type = e.kind === "agent_message_chunk" ? "agent" : "thought";
        if (last && last.type === type) items[items.length - 1] = { ...last, text: last.text + str(p.text) };
        else items.push({ type, key, text: str(p.text) });
        break;
      }
      case "tool_call":
        items.push({
          type: "tool",
          key,
          toolCallId: str(p.toolCallId),
          title: str(p.title),
          kind: str(p.kind),
          status: toolStatus(p.status),
        });
        break;
      case "tool_call_update":
        items = items.map((item) =>
          item.type === "tool" && item.toolCallId === str(p.toolCallId)
            ? { ...item, ...(p.title ? { title: str(p.title) } : {}), ...(p.status ? { status: toolStatus(p.status) } : {}) }
            : item,
        );
        break;
      case "plan":
        plan = Array.isArray(p.entries)
          ? (p.entries as PlanEntryView[]).map((x) => ({ content: str(x.content), status: str(x.status) }))
          : [];
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
      case "turn_end": {
        busy = false;
        turn = null;
        if (p.stopReason === "cancelled") {
          const at = lastIndexOf(items, "agent", "learner");
          const answer = at >= 0 ? items[at] : undefined;
          if (answer?.type === "agent") items[at] = { ...answer, stopped: true };
          items.push({
            type: "stopped",
            key,
            by: p.stoppedBy === "timeout" ? "timeout" : "learner",
            agentIgnoredStop: p.agentIgnoredStop === true,
          });
        } else if (p.stopReason === "error") {
          const d = (p.details ?? {}) as {
            agentMessage?: unknown;
            data?: unknown;
            signInMethods?: unknown;
            signInHint?: unknown;
            tried?: unknown;
          };
          items.push({
            type: "failure",
            key,
            text: str(d.agentMessage) || str(p.error),
            ...(typeof d.data === "string" ? { data: d.data } : {}),
            signInMethods: signInMethods(d.signInMethods),
            ...(typeof d.signInHint === "string" ? { signInHint: d.signInHint } : {}),
            ...(typeof d.tried === "string" ? { tried: d.tried } : {}),
          });
        }
        break;
      }
      case "notice":
        items.push({ type: "notice", key, text: str(p.text) });
        break;
    }
  }
  return { items, plan, busy, turn, agent, lastPrompt, lastSeq };
}

/** Seconds since a server time, on the server's clock (`now` from server-clock.ts). */
export function secondsSince(iso: string, now: number): number {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? 0 : Math.max(0, Math.floor((now - at) / 1000));
}

/** The index of the last item of type `want`, not looking past one of type `stop`; -1 when none. */
function lastIndexOf(items: readonly ChatItem[], want: ChatItem["type"], stop: ChatItem["type"]): number {
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]!.type === want) return i;
    if (items[i]!.type === stop) return -1;
  }
  return -1;
}

function signInMethods(raw: unknown): SignInMethodView[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m: { id?: unknown; name?: unknown; description?: unknown }) =>
    typeof m?.id === "string" && typeof m.name === "string"
      ? [{ id: m.id, name: m.name, ...(typeof m.description === "string" ? { description: m.description } : {}) }]
      : [],
  );
}

function str(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

function toolStatus(value: unknown): ToolStatus {
  return value === "in_progress" || value === "completed" || value === "failed" ? value : "pending";
}
