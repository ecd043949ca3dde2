// Refusals as real agents give them (recorded offline, December 2026), turned into the fix.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../config/paths.ts";
import { describeAgentError, failureSentence, lastStderrLine, readSignInMethods } from "./acp-failure.ts";

// What the real agents sent offline (recorded in e2e/fixtures/real-acp-agents-offline.json).
const RECORDED = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "e2e", "fixtures", "real-acp-agents-offline.json"), "utf8")) as {
  agents: {
    command: string;
    authMethods?: unknown;
    promptError?: { code: number; message: string };
    sessionNewError?: { code: number; message: string };
    asRoot?: { sessionNewError: { code: number; message: string }; stderr: string };
  }[];
};
const real = (command: string) => RECORDED.agents.find((a) => a.command.startsWith(command))!;
const CLAUDE_METHODS = readSignInMethods(real("claude-code-acp").authMethods);
const GEMINI_METHODS = readSignInMethods(real("gemini").authMethods);

describe("describeAgentError", () => {
  it("claude-code-acp's prompt refusal names its sign-in method and the hint", () => {
    const d = describeAgentError(real("claude-code-acp").promptError, CLAUDE_METHODS, "Run `claude /login`.");
    expect(d).toEqual({
      agentMessage: "Authentication required",
      code: -32000,
      needsSignIn: true,
      signInMethods: CLAUDE_METHODS,
      signInHint: "Run `claude /login`.",
    });
    expect(failureSentence(d)).toBe(
      'the agent said: "Authentication required". It offers these ways to sign in: Log in with Claude Code (Run `claude /login` in the terminal). Run `claude /login`.',
    );
  });

  it("gemini's session/new refusal lists its four methods", () => {
    const d = describeAgentError(real("gemini").sessionNewError, GEMINI_METHODS);
    expect(d.signInMethods.map((m) => m.id)).toEqual(["oauth-personal", "gemini-api-key", "vertex-ai", "gateway"]);
    expect(failureSentence(d)).toContain("Sign in to the agent in a terminal on this machine");
  });

  it("keeps the error's data as the agent gave it", () => {
    const d = describeAgentError(
      { code: -32603, message: "Internal error", data: { details: "Query closed before response received" } },
      CLAUDE_METHODS,
    );
    expect(d.data).toBe('{"details":"Query closed before response received"}');
    expect(d.needsSignIn).toBe(false);
    expect(failureSentence(d)).toBe('the agent said: "Internal error" (details: {"details":"Query closed before response received"}).');
  });

  it.each([
    [{ code: -32603, message: "Internal error", data: "Please run /login" }, true],
    [{ code: -32603, message: "Invalid API key" }, true],
    [{ code: -32602, message: "Invalid params" }, false],
    [new Error("socket hang up"), false],
    ["plain text", false],
  ])("%j needs sign-in: %s", (error, needsSignIn) => {
    expect(describeAgentError(error, CLAUDE_METHODS).needsSignIn).toBe(needsSignIn);
  });

  it.each([
    ["", undefined],
    ["Loading...\nUnable to connect\n\n", "Unable to connect"],
    // The SDK's own log of the failed request (as claude-code-acp 0.16 writes it) is skipped.
    [
      "cannot be used with root\nError handling request {\n  id: 2,\n  method: 'session/new'\n} {\n  code: -32603,\n  data: { details: 'x' }\n}\n",
      "cannot be used with root",
    ],
    ["Error handling request {\n  id: 2\n} {\n  code: -32603\n}\n", undefined],
    ["Error handling request {\n} {\n}\nthen it died\n", "then it died"],
    [`${"x".repeat(400)}\n`, `${"x".repeat(300)}…`],
  ])("the last stderr line of %j is %j", (tail, line) => {
    expect(lastStderrLine(tail)).toBe(line);
  });

  it("claude-code-acp run as root: the refusal is bare, the reason is on stderr before the SDK's log", () => {
    const { sessionNewError, stderr } = real("claude-code-acp").asRoot!;
    const d = describeAgentError(sessionNewError, CLAUDE_METHODS, "Run `claude /login`.", stderr);
    expect(d.needsSignIn).toBe(false);
    expect(d.agentStderr).toBe("--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons");
  });

  it("quotes that line with the refusal only when there is one", () => {
    const error = { code: -32603, message: "Internal error" };
    expect(describeAgentError(error, [], undefined, "").agentStderr).toBeUndefined();
    const d = describeAgentError(error, [], undefined, "no space left on device\n");
    expect(failureSentence(d)).toBe('the agent said: "Internal error". Its last words on its error output: "no space left on device"');
  });

  it("ignores sign-in methods of a shape it does not know", () => {
    expect(readSignInMethods([{ id: 1 }, null, "x", { id: "a", name: "A", description: "" }])).toEqual([{ id: "a", name: "A" }]);
    expect(readSignInMethods(undefined)).toEqual([]);
  });
});
