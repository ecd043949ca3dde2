import { describe, expect, it } from "vitest";
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";
import { EMPTY_CONVERSATION, foldEvents, secondsSince } from "./acp-conversation";

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

  it("keeps what the agent accepts, the learner's attachments and the last prompt for Retry", () => {
    seq = 0;
    const c = foldEvents(EMPTY_CONVERSATION, [
      ev("agent_info", {
        name: "Tutor",
        prompt: { image: true, embeddedContext: false },
        signInMethods: [{ id: "login", name: "Log in" }],
      }),
      {
        ...ev("user_message", {
          text: "what is this?",
          attachments: [{ name: "1-photo.jpg", mimeType: "image/jpeg", size: 9, kind: "image" }],
        }),
        at: "2026-12-01T10:00:00.000Z",
      },
      { ...ev("agent_message_chunk", { text: "A" }), at: "2026-12-01T10:00:04.000Z" },
    ]);
    expect(c.agent).toEqual({ name: "Tutor", image: true, embeddedContext: false, signInMethods: [{ id: "login", name: "Log in" }] });
    expect(c.items[0]).toMatchObject({ type: "learner", attachments: [{ name: "1-photo.jpg" }] });
    expect(c.lastPrompt).toEqual({ text: "what is this?", attachments: ["1-photo.jpg"] });
    expect(c.turn).toEqual({ startedAt: "2026-12-01T10:00:00.000Z", lastEventAt: "2026-12-01T10:00:04.000Z" });
  });

  it.each([
    [
      { stopReason: "cancelled", stoppedBy: "learner" },
      { type: "stopped", by: "learner", agentIgnoredStop: false },
    ],
    [
      { stopReason: "cancelled", stoppedBy: "timeout", agentIgnoredStop: true },
      { type: "stopped", by: "timeout", agentIgnoredStop: true },
    ],
  ])("marks a stopped turn (%j) and its half answer", (payload, item) => {
    seq = 0;
    const c = foldEvents(EMPTY_CONVERSATION, [
      ev("user_message", { text: "q" }),
      ev("agent_message_chunk", { text: "Let me" }),
      ev("turn_end", payload),
    ]);
    expect(c.items.at(-1)).toMatchObject(item);
    expect(c.items[1]).toMatchObject({ type: "agent", stopped: true });
    expect(c.busy).toBe(false);
    expect(c.turn).toBeNull();
  });

  it("shows a refused turn with the agent's words, details and sign-in methods", () => {
    seq = 0;
    const details = {
      agentMessage: "Authentication required",
      data: '{"reason":"no key"}',
      needsSignIn: true,
      signInMethods: [{ id: "l", name: "Log in", description: "Run `x login`" }],
      signInHint: "Run x login.",
    };
    const c = foldEvents(EMPTY_CONVERSATION, [
      ev("user_message", { text: "q" }),
      ev("turn_end", { stopReason: "error", error: "long sentence", details }),
    ]);
    expect(c.items.at(-1)).toEqual({
      type: "failure",
      key: "e2",
      text: "Authentication required",
      data: details.data,
      signInMethods: details.signInMethods,
      signInHint: "Run x login.",
    });
  });

  it("counts seconds on the server's clock", () => {
    expect(secondsSince("2026-12-01T10:00:00.000Z", Date.parse("2026-12-01T10:00:25.900Z"))).toBe(25);
    expect(secondsSince("", 0)).toBe(0);
  });
});
