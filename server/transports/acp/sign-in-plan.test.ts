// Which sign-in method takes a key the learner passed, on the methods real agents list (recorded
// offline in e2e/fixtures/real-acp-agents-offline.json), and what a refusal then says was tried.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../config/paths.ts";
import { readSignInMethods } from "./acp-failure.ts";
import { handshakeTimeoutMessage } from "./handshake-timeout.ts";
import { keyMethod, triedSentence } from "./sign-in-plan.ts";

const RECORDED = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "e2e", "fixtures", "real-acp-agents-offline.json"), "utf8")) as {
  agents: { command: string; authMethods?: unknown }[];
};
const methodsOf = (command: string) => readSignInMethods(RECORDED.agents.find((a) => a.command.startsWith(command))!.authMethods);

describe("keyMethod", () => {
  it.each([
    ["codex-acp with OPENAI_API_KEY", "codex-acp", ["OPENAI_API_KEY"], "openai-api-key"],
    ["codex-acp with CODEX_API_KEY", "codex-acp", ["CODEX_API_KEY"], "codex-api-key"],
    ["codex-acp with nothing passed", "codex-acp", [], null],
    ["codex-acp with another agent's key", "codex-acp", ["GEMINI_API_KEY"], null],
    ["gemini with GEMINI_API_KEY (its method does not name it)", "gemini", ["GEMINI_API_KEY"], "gemini-api-key"],
    ["claude-code-acp: only a terminal login", "claude-code-acp", ["ANTHROPIC_API_KEY"], null],
    ["opencode: only a terminal login", "opencode", ["OPENAI_API_KEY"], null],
  ])("%s", (_name, command, passed, expected) => {
    expect(keyMethod(methodsOf(command), passed)?.methodId ?? null).toBe(expected);
  });

  it("reads a variable named in a method's words, and never passes a terminal method to authenticate", () => {
    const methods = readSignInMethods([
      { type: "terminal", id: "login", name: "Log in", description: "Set TUTOR_API_KEY or run tutor login" },
      { id: "key", name: "Tutor API key", description: "Set TUTOR_API_KEY" },
    ]);
    expect(keyMethod(methods, ["TUTOR_API_KEY"])).toEqual({ methodId: "key", methodName: "Tutor API key", variable: "TUTOR_API_KEY" });
  });
});

describe("triedSentence", () => {
  const plan = { methodId: "openai-api-key", methodName: "Use OPENAI_API_KEY", variable: "OPENAI_API_KEY" };
  it.each([
    ["nothing passed", undefined, undefined],
    ["a proxy passed, no key", { passed: ["HTTPS_PROXY"], plan: null, signedIn: false }, undefined],
    [
      "signed in, still refused",
      { passed: ["OPENAI_API_KEY"], plan, signedIn: true },
      'StudyLoop passed OPENAI_API_KEY and signed in with it ("Use OPENAI_API_KEY"); the agent still refused: "Authentication required". Check that the key is right and may use the agent\'s provider, or sign in another way.',
    ],
    [
      "the sign-in itself refused",
      { passed: ["OPENAI_API_KEY"], plan, signedIn: false },
      'StudyLoop passed OPENAI_API_KEY and tried to sign in with it ("Use OPENAI_API_KEY"); the agent refused: "Authentication required". Check that the key is right and may use the agent\'s provider, or sign in another way.',
    ],
    [
      "a key passed that no method takes (claude reads ANTHROPIC_API_KEY itself)",
      { passed: ["ANTHROPIC_API_KEY"], plan: null, signedIn: false },
      'StudyLoop passed ANTHROPIC_API_KEY to the agent (it lists no sign-in method that takes it); the agent still refused: "Authentication required". Check that the key is right and may use the agent\'s provider, or sign in another way.',
    ],
  ])("%s", (_name, attempt, expected) => {
    expect(triedSentence(attempt, "Authentication required")).toBe(expected);
  });
});

describe("handshakeTimeoutMessage", () => {
  it("no network: the provider's address could not be found (codex's own words)", () => {
    const tail =
      "\x1b[2m2026-12-06T09:25:12Z\x1b[0m \x1b[31mERROR\x1b[0m failed to connect to websocket: IO error: failed to lookup address information: Name or service not known\n";
    expect(handshakeTimeoutMessage("opening the conversation", 45, tail)).toBe(
      'the agent did not answer the protocol handshake (opening the conversation) within 45 s. It seems unable to reach its provider over the network: check that this machine is online (and any proxy it needs), then start again. Its last lines on its error output: "2026-12-06T09:25:12Z ERROR failed to connect to websocket: IO error: failed to lookup address information: Name or service not known".',
    );
  });

  it("nothing said: both likely causes, and that it wrote nothing", () => {
    const message = handshakeTimeoutMessage("initialize", 45, "");
    expect(message).toMatch(
      /^the agent did not answer the protocol handshake within 45 s\. Likely causes: no network to its provider, or a slow first start/,
    );
    expect(message).toMatch(/It wrote nothing on its error output\.$/);
  });

  it("quotes at most five lines, the last ones", () => {
    const tail = Array.from({ length: 8 }, (_, i) => `step ${i + 1}`).join("\n");
    expect(handshakeTimeoutMessage("initialize", 20, tail)).toContain(
      'Its last lines on its error output: "step 4"; "step 5"; "step 6"; "step 7"; "step 8".',
    );
  });
});
