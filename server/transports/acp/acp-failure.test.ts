// Refusals as real agents give them (recorded offline, December 2026), turned into the fix.
import { describe, expect, it } from "vitest";
import { describeAgentError, failureSentence, readSignInMethods } from "./acp-failure.ts";

// What the real agents sent (see docs/acp.md, "Real agents offline").
const CLAUDE_METHODS = readSignInMethods([{ description: "Run `claude /login` in the terminal", name: "Log in with Claude Code", id: "claude-login" }]);
const GEMINI_METHODS = readSignInMethods([
  { id: "oauth-personal", name: "Log in with Google", description: "Log in with your Google account" },
  { id: "gemini-api-key", name: "Gemini API key", description: "Use an API key with Gemini Developer API", _meta: { "api-key": { provider: "google" } } },
  { id: "vertex-ai", name: "Vertex AI", description: "Use an API key with Vertex AI GenAI API" },
  { id: "gateway", name: "AI API Gateway", description: "Use a custom AI API Gateway" },
]);

describe("describeAgentError", () => {
  it("claude-code-acp's prompt refusal names its sign-in method and the hint", () => {
    const d = describeAgentError({ code: -32000, message: "Authentication required" }, CLAUDE_METHODS, "Run `claude /login`.");
    expect(d).toEqual({ agentMessage: "Authentication required", code: -32000, needsSignIn: true, signInMethods: CLAUDE_METHODS, signInHint: "Run `claude /login`." });
    expect(failureSentence(d)).toBe(
      'the agent said: "Authentication required". It offers these ways to sign in: Log in with Claude Code (Run `claude /login` in the terminal). Run `claude /login`.',
    );
  });

  it("gemini's session/new refusal lists its four methods", () => {
    const d = describeAgentError({ code: -32000, message: "Gemini API key is missing or not configured." }, GEMINI_METHODS);
    expect(d.signInMethods.map((m) => m.id)).toEqual(["oauth-personal", "gemini-api-key", "vertex-ai", "gateway"]);
    expect(failureSentence(d)).toContain("Sign in to the agent in a terminal on this machine");
  });

  it("keeps the error's data as the agent gave it", () => {
    const d = describeAgentError({ code: -32603, message: "Internal error", data: { details: "Query closed before response received" } }, CLAUDE_METHODS);
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

  it("ignores sign-in methods of a shape it does not know", () => {
    expect(readSignInMethods([{ id: 1 }, null, "x", { id: "a", name: "A", description: "" }])).toEqual([{ id: "a", name: "A" }]);
    expect(readSignInMethods(undefined)).toEqual([]);
  });
});
