// Signing an ACP agent in with a key the learner passed to it (studyloop.config.json `env.pass`;
// issue 42). codex-acp 0.16 refuses session/new with OPENAI_API_KEY in its environment until the
// client calls `authenticate` with its `openai-api-key` method; a minimal client that does gets a
// session. Pure: which method takes a passed key, and what to tell the learner about what was tried.
import type { SignInMethod } from "./acp-failure.ts";

/**
 * Methods whose key is an environment variable, for agents that do not list the variable themselves
 * (gemini-cli 0.61's `gemini-api-key` says only "Use an API key with Gemini Developer API").
 */
const KEY_METHODS: Readonly<Record<string, string>> = {
  "openai-api-key": "OPENAI_API_KEY",
  "codex-api-key": "CODEX_API_KEY",
  "gemini-api-key": "GEMINI_API_KEY",
  "anthropic-api-key": "ANTHROPIC_API_KEY",
  "claude-api-key": "ANTHROPIC_API_KEY",
};

/** A key's variable named in a method's words ("Set TUTOR_API_KEY", "Requires `OPENAI_API_KEY`"). */
const KEY_VARIABLE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_KEY|KEY|TOKEN)\b/g;

export interface SignInPlan {
  readonly methodId: string;
  readonly methodName: string;
  /** The passed variable the method signs in with. */
  readonly variable: string;
}

/** What StudyLoop did before the agent's answer, for the refusal's sentence. */
export interface SignInAttempt {
  /** Variables passed to the agent on purpose (env.pass) and set. */
  readonly passed: readonly string[];
  readonly plan: SignInPlan | null;
  /** `authenticate` answered without an error. */
  readonly signedIn: boolean;
}

/** The variables a method signs in with. */
function variablesOf(method: SignInMethod): readonly string[] {
  if (method.vars?.length) return method.vars;
  const known = KEY_METHODS[method.id];
  if (known) return [known];
  return [...new Set(`${method.name} ${method.description ?? ""}`.match(KEY_VARIABLE) ?? [])];
}

/** The first method (in the agent's order) whose every variable was passed; null when none is. */
export function keyMethod(methods: readonly SignInMethod[], passed: readonly string[]): SignInPlan | null {
  for (const method of methods) {
    if (method.terminal) continue;
    const vars = variablesOf(method);
    if (vars.length > 0 && vars.every((v) => passed.includes(v)))
      return { methodId: method.id, methodName: method.name, variable: vars[0]! };
  }
  return null;
}

/** What StudyLoop tried, for a refusal that asks for sign-in; undefined when it tried nothing (nothing passed). */
export function triedSentence(attempt: SignInAttempt | undefined, agentMessage: string): string | undefined {
  if (!attempt || attempt.passed.length === 0) return undefined;
  const said = `"${agentMessage}"`;
  const next = "Check that the key is right and may use the agent's provider, or sign in another way.";
  const { plan } = attempt;
  if (plan && attempt.signedIn) {
    return `StudyLoop passed ${plan.variable} and signed in with it ("${plan.methodName}"); the agent still refused: ${said}. ${next}`;
  }
  if (plan)
    return `StudyLoop passed ${plan.variable} and tried to sign in with it ("${plan.methodName}"); the agent refused: ${said}. ${next}`;
  // Only keys: a proxy setting passed on purpose is not a way to sign in.
  const keys = attempt.passed.filter((v) => /_(?:KEY|TOKEN)$/.test(v));
  if (keys.length === 0) return undefined;
  return `StudyLoop passed ${keys.join(", ")} to the agent (it lists no sign-in method that takes ${keys.length === 1 ? "it" : "them"}); the agent still refused: ${said}. ${next}`;
}
