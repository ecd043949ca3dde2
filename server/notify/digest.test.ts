import { describe, expect, it } from "vitest";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import { buildDigest, isEmptyDigest, type DigestInput } from "./digest.ts";

const since = new Date("2026-12-01T10:00:00Z");
const at = (min: number) => new Date(since.getTime() + min * 60_000);
const ev = (seq: number, min: number, kind: AcpEventRecord["kind"], payload: Record<string, unknown>): AcpEventRecord => ({
  seq,
  kind,
  payload,
  at: at(min).toISOString(),
});

const empty: DigestInput = {
  since,
  now: at(10),
  sessionId: "s1",
  topic: "closures",
  outputLines: [],
  chat: [],
  marks: [],
  parked: [],
  notices: [],
};

describe("buildDigest", () => {
  it("nothing happened: an empty digest", () => {
    const d = buildDigest(empty);
    expect(isEmptyDigest(d)).toBe(true);
    expect(d.awayMs).toBe(10 * 60_000);
  });

  it("lists what the tutor printed, said and asked, marks, parked thoughts and notices, oldest first", () => {
    const d = buildDigest({
      ...empty,
      outputLines: [
        { at: at(-1).getTime(), text: "before you left" },
        { at: at(1).getTime(), text: "you said: hello" },
        { at: at(1.5).getTime(), text: "   " },
      ],
      chat: [
        ev(1, -2, "permission_request", { requestId: "old", toolCall: { title: "Answered already" } }),
        ev(2, -2, "permission_outcome", { requestId: "old", outcome: "selected" }),
        ev(3, 2, "user_message", { text: "explain closures" }),
        ev(4, 2, "agent_message_chunk", { text: "**Closures** " }),
        ev(5, 2, "agent_message_chunk", { text: "capture   the variables." }),
        ev(6, 3, "turn_end", { stopReason: "end_turn" }),
        ev(7, 4, "permission_request", { requestId: "r2", toolCall: { title: "Run the example" } }),
      ],
      marks: [{ topic: "closures", status: "win", note: "explained it back", createdAt: at(5) }],
      parked: [
        { text: "look up currying", source: "learner", createdAt: at(6) },
        { text: "old thought", source: "learner", createdAt: at(-5) },
      ],
      notices: [{ title: "The tutor asks for your permission", createdAt: at(4) }],
    });
    expect(d.pending).toEqual([{ kind: "permission", at: at(4).toISOString(), text: "The tutor asks: Run the example" }]);
    expect(d.items.map((i) => [i.kind, i.text])).toEqual([
      ["output", "you said: hello"],
      ["said", "**Closures** capture the variables."],
      ["notice", "The tutor asks for your permission"],
      ["mark", "win: closures (explained it back)"],
      ["parked", "Parked: look up currying"],
    ]);
  });

  it("keeps the last lines, each distinct line once, and clips long ones", () => {
    const lines = Array.from({ length: 20 }, (_, i) => ({ at: at(1 + i / 100).getTime(), text: i % 2 ? "spinner" : `line ${i}` }));
    lines.push({ at: at(2).getTime(), text: "x".repeat(500) });
    const d = buildDigest({ ...empty, outputLines: lines });
    expect(d.items).toHaveLength(8);
    expect(d.items.at(-1)!.text).toHaveLength(240);
    expect(d.items.filter((i) => i.text === "spinner")).toHaveLength(1);
  });
});
