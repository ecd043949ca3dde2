// chatEventOf: the agent's session/update notifications as the chat's events, and the ones it drops.
import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { chatEventOf } from "./acp-updates.ts";

describe("chatEventOf", () => {
  it("keeps a chunk's text, and names a chunk that is not text", () => {
    expect(chatEventOf({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } })).toEqual({
      kind: "agent_message_chunk",
      payload: { text: "Hi" },
    });
    expect(chatEventOf({ sessionUpdate: "agent_thought_chunk", content: { type: "image", data: "", mimeType: "image/png" } })).toEqual({
      kind: "agent_thought_chunk",
      payload: { text: "[image]" },
    });
  });

  it("gives a tool call a kind and a status, and an update only the fields it changed", () => {
    expect(chatEventOf({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Read notes" })?.payload).toEqual({
      toolCallId: "t1",
      title: "Read notes",
      kind: "other",
      status: "pending",
    });
    expect(chatEventOf({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" })?.payload).toEqual({
      toolCallId: "t1",
      status: "completed",
    });
  });

  it("keeps a plan's entries and drops what the learner does not need", () => {
    const plan = chatEventOf({
      sessionUpdate: "plan",
      entries: [{ content: "Recall", status: "pending", priority: "high", _meta: { x: 1 } }],
    });
    expect(plan).toEqual({ kind: "plan", payload: { entries: [{ content: "Recall", status: "pending", priority: "high" }] } });
    expect(chatEventOf({ sessionUpdate: "current_mode_update", currentModeId: "ask" } as SessionUpdate)).toBeUndefined();
  });
});
