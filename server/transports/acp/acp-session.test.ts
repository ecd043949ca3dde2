// AcpSession against the real ACP test agent (a separate process written with the SDK's agent side).
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../config/paths.ts";
import type { AcpEventRecord } from "./acp-events.ts";
import { AcpFailure, AcpSession, renderTranscript } from "./acp-session.ts";

const AGENT = path.join(PROJECT_ROOT, "e2e", "fixtures", "acp-test-agent.mjs");
const sessions: AcpSession[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.dispose();
});

async function startAgent(args: string[] = [], handshakeTimeoutMs = 10_000) {
  const events: AcpEventRecord[] = [];
  const session = await AcpSession.start({
    command: process.execPath,
    args: [AGENT, ...args],
    cwd: os.tmpdir(),
    env: { ...(process.env as Record<string, string>) },
    handshakeTimeoutMs,
    record: (e) => events.push(e),
  });
  sessions.push(session);
  return { session, events };
}

async function until(check: () => boolean, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("AcpSession", () => {
  it("streams an answer with a plan, a thought and a tool call, numbered in order", async () => {
    const { session, events } = await startAgent();
    session.prompt("explain closures");
    await until(() => events.some((e) => e.kind === "turn_end"));
    const kinds = events.map((e) => e.kind);
    expect(kinds[0]).toBe("user_message");
    expect(kinds).toEqual(expect.arrayContaining(["plan", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.payload).toEqual({ stopReason: "end_turn" });
    expect(renderTranscript(events)).toContain("Tutor: **Closures** capture the variables of their enclosing scope.");
  });

  it("asks the learner for permission and reports the answer; a stale answer is refused", async () => {
    const { session, events } = await startAgent();
    session.prompt("permission please");
    await until(() => events.some((e) => e.kind === "permission_request"));
    const request = events.find((e) => e.kind === "permission_request")!;
    const requestId = String(request.payload.requestId);
    expect(session.answerPermission(requestId, "not-an-option")).toBe(false);
    expect(session.answerPermission(requestId, "allow")).toBe(true);
    expect(session.answerPermission(requestId, "allow")).toBe(false);
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(renderTranscript(events)).toContain("Permission granted");
  });

  it("Stop cancels the turn and answers an open permission question as cancelled", async () => {
    const { session, events } = await startAgent();
    session.prompt("permission please");
    await until(() => events.some((e) => e.kind === "permission_request"));
    session.cancel();
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(events.find((e) => e.kind === "permission_outcome")?.payload.outcome).toBe("cancelled");
    expect(events.at(-1)?.payload.stopReason).toBe("cancelled");
  });

  it("refuses a second prompt while a turn runs", async () => {
    const { session } = await startAgent();
    session.prompt("slow answer");
    expect(() => session.prompt("again")).toThrow(/still answering/);
    session.cancel();
  });

  it("reports an agent that dies mid-turn with its exit code", async () => {
    const { session, events } = await startAgent();
    const exited = new Promise<number>((resolve) => session.onExit((e) => resolve(e.exitCode)));
    session.prompt("crash now");
    expect(await exited).toBe(3);
    expect(renderTranscript(events)).toContain("Starting to answer");
  });

  it.each([
    [["--no-init"], /did not answer the protocol handshake within 1 s/],
    [["--garbage"], /not the Agent Client Protocol on its output \("Welcome to SomeAgent/],
    [["--malformed"], /not the Agent Client Protocol/],
  ])("a broken agent (%j) fails the start with a clear message", async (args, message) => {
    await expect(startAgent(args, 1_000)).rejects.toThrow(AcpFailure);
    await expect(startAgent(args, 1_000)).rejects.toThrow(message);
  });

  it("a program that does not exist fails the start", async () => {
    await expect(
      AcpSession.start({ command: "/nonexistent/agent", args: [], cwd: os.tmpdir(), env: {}, record: () => undefined }),
    ).rejects.toThrow(/could not be run|exited/);
  });
});
