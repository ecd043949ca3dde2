// AcpSession against the real ACP test agent (a separate process written with the SDK's agent side).
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../config/paths.ts";
import type { AcpEventRecord } from "./acp-events.ts";
import fs from "node:fs";
import { AcpFailure, AcpSession, type AcpSpawnOptions } from "./acp-session.ts";
import { renderTranscript } from "./acp-transcript.ts";
import { detectType, storeAttachment } from "./attachments.ts";

const AGENT = path.join(PROJECT_ROOT, "e2e", "fixtures", "acp-test-agent.mjs");
const TUTOR = path.join(PROJECT_ROOT, "e2e", "fixtures", "acp-tutor-agent.mjs");
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
    expect(kinds.slice(0, 2)).toEqual(["agent_info", "user_message"]);
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

  // Only the silent agent waits for the time-out; the others fail on their own output (a long
  // time-out keeps a busy machine's slow start from passing for a silent agent).
  it.each([
    [["--no-init"], 1_000, /did not answer the protocol handshake within 1 s/],
    [["--garbage"], 20_000, /not the Agent Client Protocol on its output \("Welcome to SomeAgent/],
    [["--malformed"], 20_000, /not the Agent Client Protocol/],
  ])("a broken agent (%j) fails the start with a clear message", async (args, timeoutMs, message) => {
    await expect(startAgent(args, timeoutMs)).rejects.toThrow(AcpFailure);
    await expect(startAgent(args, timeoutMs)).rejects.toThrow(message);
  });

  it("a program that does not exist fails the start", async () => {
    await expect(
      AcpSession.start({ command: "/nonexistent/agent", args: [], cwd: os.tmpdir(), env: {}, record: () => undefined }),
    ).rejects.toThrow(/could not be run|exited/);
  });
});

describe("AcpSession with the scripted tutor", () => {
  async function startTutor(args: string[] = [], extra: Partial<AcpSpawnOptions> & { env?: Record<string, string> } = {}) {
    const events: AcpEventRecord[] = [];
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-acp-"));
    const session = await AcpSession.start({
      command: process.execPath,
      args: [TUTOR, ...args],
      cwd,
      handshakeTimeoutMs: 10_000,
      signInHint: "Run `tutor login` on this machine.",
      ...extra,
      env: { ...(process.env as Record<string, string>), ...extra.env },
      record: (e) => events.push(e),
    });
    sessions.push(session);
    return { session, events, cwd };
  }

  it("a bare refusal at start quotes the reason the agent wrote on stderr, not the SDK's log of it", async () => {
    const failure = await startTutor(["--stderr-refusal"]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AcpFailure);
    const { message, details } = failure as AcpFailure;
    const reason = "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons";
    expect(details?.agentStderr).toBe(reason);
    expect(message).toContain(`Its last words on its error output: "${reason}"`);
    expect(details?.needsSignIn).toBe(false);
  });

  it("records what the agent accepts and how it signs in, first", async () => {
    const { session, events } = await startTutor(["--prompt-auth-fail"]);
    expect(session.agent).toMatchObject({ name: "Scripted tutor", prompt: { image: true, embeddedContext: true }, loadSession: false });
    expect(events[0]?.kind).toBe("agent_info");
    expect((events[0]?.payload.signInMethods as unknown[]).length).toBe(2);
  });

  it("a refused start names the agent's words, its details and its sign-in methods", async () => {
    const failure = await startTutor(["--auth-fail"]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AcpFailure);
    const { message, details } = failure as AcpFailure;
    expect(message).toContain('the agent said: "Authentication required"');
    expect(message).toContain("No credentials in ~/.tutor/credentials.json");
    expect(message).toContain("Log in with Tutor (Run `tutor login` in a terminal)");
    expect(message).toContain("Run `tutor login` on this machine.");
    expect(details).toMatchObject({
      agentMessage: "Authentication required",
      code: -32000,
      needsSignIn: true,
      signInHint: "Run `tutor login` on this machine.",
    });
    expect(details?.signInMethods.map((m) => m.id)).toEqual(["tutor-login", "tutor-api-key"]);
  });

  it("a refused turn ends with the agent's words and how to sign in, in the record", async () => {
    const { session, events } = await startTutor(["--prompt-auth-fail"]);
    session.prompt("hello");
    await until(() => events.some((e) => e.kind === "turn_end"));
    const end = events.find((e) => e.kind === "turn_end")!;
    expect(end.payload).toMatchObject({ stopReason: "error", details: { agentMessage: "Authentication required", needsSignIn: true } });
    expect(renderTranscript(events)).toContain("the tutor could not answer");
    expect(session.busy).toBe(false);
  });

  it("Stop on a silent turn ends it as stopped by the learner, in the conversation and the transcript", async () => {
    const { session, events } = await startTutor();
    session.prompt("silent please");
    await until(() => events.some((e) => e.kind === "agent_message_chunk"));
    session.cancel();
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(events.at(-1)?.payload).toEqual({ stopReason: "cancelled", stoppedBy: "learner" });
    expect(renderTranscript(events)).toContain("[stopped by the learner]");
  });

  it("an agent that ignores Stop is not waited for: the turn ends after the grace, and the next prompt works", async () => {
    const { session, events } = await startTutor([], { cancelGraceMs: 300 });
    session.prompt("deaf please");
    await until(() => events.some((e) => e.kind === "agent_message_chunk"));
    session.cancel();
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(events.find((e) => e.kind === "turn_end")?.payload).toEqual({
      stopReason: "cancelled",
      stoppedBy: "learner",
      agentIgnoredStop: true,
    });
    session.prompt("env please");
    await until(() => events.filter((e) => e.kind === "turn_end").length === 2);
  });

  it("a turn silent past the time-out is stopped and says so", async () => {
    const { session, events } = await startTutor([], { turnTimeoutMs: 400, cancelGraceMs: 300 });
    session.prompt("silent please");
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(events.some((e) => e.kind === "notice" && String(e.payload.text).includes("sent nothing for"))).toBe(true);
    expect(events.find((e) => e.kind === "turn_end")?.payload).toMatchObject({ stopReason: "cancelled", stoppedBy: "timeout" });
  });

  it("sends an attached photo and text file as ACP content blocks", async () => {
    const log = path.join(os.tmpdir(), `acp-tutor-${process.pid}-${Date.now()}.jsonl`);
    const { session, events, cwd } = await startTutor([], { env: { ACP_TUTOR_LOG: log } });
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8a3b40000000049454e44ae426082",
      "hex",
    );
    const photo = storeAttachment(cwd, "IMG 0042.PNG", png, detectType(png)!);
    const notes = storeAttachment(cwd, "notes.md", Buffer.from("# my_notes\n2*3*4"), detectType(Buffer.from("x"))!);
    session.prompt("what is in this image?", [photo.name, notes.name]);
    await until(() => events.some((e) => e.kind === "turn_end"));
    expect(renderTranscript(events)).toContain(
      `I received an image (image/png, ${png.length} bytes) and a file (text/plain, 16 characters).`,
    );
    const blocks = JSON.parse(fs.readFileSync(log, "utf8").trim()) as Array<Record<string, unknown>>;
    expect(blocks[0]).toEqual({ type: "text", text: "what is in this image?" });
    expect(blocks[1]).toMatchObject({ type: "image", mimeType: "image/png", data: png.toString("base64") });
    expect(String(blocks[1]!.uri)).toMatch(/\/attachments\/1-img-0042\.png$/);
    expect(blocks[2]).toMatchObject({ type: "resource", resource: { mimeType: "text/plain", text: "# my_notes\n2*3*4" } });
    expect(events.find((e) => e.kind === "user_message")?.payload.attachments).toHaveLength(2);
    expect(() => session.prompt("again", ["../../etc/passwd"])).toThrow(/is gone/);
    fs.rmSync(log, { force: true });
  });

  it("refuses an image for an agent that does not accept images", async () => {
    const { session, cwd } = await startTutor(["--no-attachments"]);
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const photo = storeAttachment(cwd, "a.png", png, detectType(png)!);
    expect(() => session.prompt("look", [photo.name])).toThrow(/does not accept images/);
  });
});
