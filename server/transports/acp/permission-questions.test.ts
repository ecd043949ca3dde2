// PermissionQuestions: each question is answered once, with one of its own options, or cancelled.
import { describe, expect, it } from "vitest";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { PermissionQuestions } from "./permission-questions.ts";

const QUESTION: RequestPermissionRequest = {
  sessionId: "s1",
  toolCall: { toolCallId: "t1", title: "Write notes.md" },
  options: [
    { optionId: "allow", name: "Allow", kind: "allow_once" },
    { optionId: "deny", name: "Deny", kind: "reject_once" },
  ],
};

function questions() {
  const events: Array<{ kind: string; payload: Record<string, unknown> }> = [];
  const open = new PermissionQuestions((kind, payload) => events.push({ kind, payload }));
  return { open, events };
}

describe("PermissionQuestions", () => {
  it("takes one answer with one of the question's options", async () => {
    const { open, events } = questions();
    const answer = open.ask(QUESTION);
    const requestId = String(events[0]?.payload.requestId);
    expect(events[0]?.kind).toBe("permission_request");
    expect(open.answer(requestId, "maybe")).toBe(false);
    expect(open.answer(requestId, "deny")).toBe(true);
    expect(open.answer(requestId, "allow")).toBe(false);
    expect(await answer).toEqual({ outcome: { outcome: "selected", optionId: "deny" } });
    expect(events.at(-1)).toEqual({ kind: "permission_outcome", payload: { requestId, outcome: "selected", optionId: "deny" } });
  });

  it("answers every open question as cancelled, once", async () => {
    const { open, events } = questions();
    const answers = [open.ask(QUESTION), open.ask(QUESTION)];
    open.cancelAll();
    open.cancelAll();
    expect(await Promise.all(answers)).toEqual([{ outcome: { outcome: "cancelled" } }, { outcome: { outcome: "cancelled" } }]);
    expect(events.map((e) => e.kind)).toEqual(["permission_request", "permission_request", "permission_outcome", "permission_outcome"]);
  });
});
