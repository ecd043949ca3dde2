// Opening the conversation once initialize answered: sign in with a key the learner passed (when the
// agent offers a method for it), then session/new, or session/load to continue. An agent that refuses
// for want of sign-in before StudyLoop signed in (it listed its methods only in the refusal) is signed
// in and asked once more. What was tried is reported as it happens, for the refusal's sentence.
import type { ClientConnection } from "@agentclientprotocol/sdk";
import { isAuthRefusal, signInMethodsInError } from "./acp-failure.ts";
import type { AgentProfile } from "./acp-handshake.ts";
import { keyMethod, type SignInAttempt } from "./sign-in-plan.ts";

export interface OpenOptions {
  readonly cwd: string;
  /** Continue this conversation when the agent can load one. */
  readonly loadSessionId?: string;
  /** Variables passed to the agent on purpose (env.pass) and set here. */
  readonly passedVariables: readonly string[];
}

/** Returns the agent's id for the conversation; throws the agent's refusal as it gave it. */
export async function openConversation(
  connection: ClientConnection,
  profile: AgentProfile,
  opts: OpenOptions,
  report: (attempt: SignInAttempt) => void,
): Promise<string> {
  let attempt: SignInAttempt = { passed: opts.passedVariables, plan: null, signedIn: false };
  report(attempt);
  const signIn = async (methods: AgentProfile["signInMethods"]): Promise<boolean> => {
    const plan = keyMethod(methods, opts.passedVariables);
    if (!plan) return false;
    attempt = { ...attempt, plan };
    report(attempt);
    await connection.agent.request("authenticate", { methodId: plan.methodId });
    attempt = { ...attempt, signedIn: true };
    report(attempt);
    return true;
  };
  const open = async (): Promise<string> => {
    if (opts.loadSessionId && profile.loadSession) {
      // The agent replays the conversation as session/update notifications: the chat shows it again.
      await connection.agent.request("session/load", { sessionId: opts.loadSessionId, cwd: opts.cwd, mcpServers: [] });
      return opts.loadSessionId;
    }
    return (await connection.agent.request("session/new", { cwd: opts.cwd, mcpServers: [] })).sessionId;
  };

  const signedInFirst = await signIn(profile.signInMethods);
  try {
    return await open();
  } catch (error) {
    if (signedInFirst || !isAuthRefusal(error)) throw error;
    if (!(await signIn([...profile.signInMethods, ...signInMethodsInError(error)]))) throw error;
    return open(); // once
  }
}
