// An ACP conversation's stored events as searchable messages: the learner's messages, and the
// tutor's answers (its streamed chunks joined). Pure.

export interface ChatEvent {
  readonly seq: number;
  readonly kind: string;
  readonly payload: Record<string, unknown>;
  readonly at: Date;
}

export interface ChatMessage {
  /** The number of the message's first event: the chat's anchor (#message-<seq>). */
  readonly seq: number;
  readonly from: "learner" | "tutor";
  readonly text: string;
  readonly at: Date;
  /** False for the tutor's answer still streaming at the last event. */
  readonly complete: boolean;
}

export function chatMessages(events: readonly ChatEvent[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: { seq: number; text: string; at: Date } | null = null;
  const close = (complete: boolean) => {
    if (open && open.text.trim()) out.push({ seq: open.seq, from: "tutor", text: open.text, at: open.at, complete });
    open = null;
  };
  for (const e of events) {
    const text = typeof e.payload.text === "string" ? e.payload.text : "";
    if (e.kind === "agent_message_chunk") {
      if (open) open.text += text;
      else open = { seq: e.seq, text, at: e.at };
      continue;
    }
    close(true);
    if (e.kind === "user_message" && text.trim()) out.push({ seq: e.seq, from: "learner", text, at: e.at, complete: true });
  }
  close(false);
  return out;
}
