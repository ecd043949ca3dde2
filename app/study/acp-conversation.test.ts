import { describe, expect, it } from "vitest";
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";
import { EMPTY_CONVERSATION, foldEvents } from "./acp-conversation";

let seq = 0;
const ev = (kind: AcpEventRecord["kind"], payload: Record<string, unknown>): AcpEventRecord => ({ seq: ++seq, kind, payload, at: "" });

describe("foldEvents", () => {
  it("joins streamed chunks into one message, keeps thoughts apart, tracks tools and the plan", () => {
    seq = 0;
    const events = [
      ev("user_message", { text: "explain closures" }),
      ev("plan", { entries: [{ content: "Explain", status: "in_progress" }] }),
      ev("agent_thought_chunk", { text: "thinking" }),
      ev("tool_call", { toolCallId: "t1", title: "Read notes", kind: "read", status: "pending" }),
      ev("tool_call_update", { toolCallId: "t1", status: "completed" }),
      ev("agent_message_chunk", { text: "**Closures** " }),
      ev("agent_message_chunk", { text: "capture." }),
    ];
    const c = foldEvents(EMPTY_CONVERSATION, events);
    expect(c.items.map((i) => i.type)).toEqual(["learner", "thought", "tool", "agent"]);
    expect(c.items[3]).toMatchObject({ text: "**Closures** capture." });
    expect(c.items[2]).toMatchObject({ status: "completed" });
    expect(c.plan).toEqual([{ content: "Explain", status: "in_progress" }]);
    expect(c.busy).toBe(true);
    const done = foldEvents(c, [ev("turn_end", { stopReason: "end_turn" })]);
    expect(done.busy).toBe(false);
  });

  it("ignores events it has already folded (a resume may repeat them)", () => {
    seq = 0;
    const first = [ev("user_message", { text: "hi" }), ev("agent_message_chunk", { text: "hello" })];
    const once = foldEvents(EMPTY_CONVERSATION, first);
    expect(foldEvents(once, first)).toEqual(once);
  });

  it("closes a permission question with the chosen option or as cancelled", () => {
    seq = 0;
    const ask = ev("permission_request", {
      requestId: "r1",
      toolCall: { title: "Run it" },
      options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
    });
    const open = foldEvents(EMPTY_CONVERSATION, [ask]);
    expect(open.items[0]).toMatchObject({ type: "permission", answer: null, title: "Run it" });
    const answered = foldEvents(open, [ev("permission_outcome", { requestId: "r1", outcome: "selected", optionId: "allow" })]);
    expect(answered.items[0]).toMatchObject({ answer: "Allow" });
    const cancelled = foldEvents(open, [ev("permission_outcome", { requestId: "r1", outcome: "cancelled" })]);
    expect(cancelled.items[0]).toMatchObject({ answer: "cancelled" });
  });
});
