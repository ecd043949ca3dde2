// What a start is asked for and what it gives back: the request (HTTP body or CLI), a continuation
// of an earlier session, the launch a transport is made from, and the result the page attaches with.
import type { AgentDefinition } from "../agents/agent-catalog.ts";
import type { LiveTransport } from "../transports/live-transport.ts";
import type { FocusPlanKind } from "../../common/study/focus-plan.ts";
import type { AttachInfo, SessionView } from "./session-view.ts";

/** What a start asks for: the HTTP body's fields, or the CLI's with transport "tmux". */
export interface StartRequest {
  readonly topic: string;
  readonly energy: number;
  readonly agent: string;
  readonly transport: "pty" | "acp" | "tmux";
  readonly focusPlan: FocusPlanKind;
}

/** "Continue this session": the previous session, whose folder and conversation are taken up. */
export interface Continuation {
  readonly fromId: string;
  /** The folder the agent ran in (the first session of the chain's id). */
  readonly folderId: string;
  /** The agent's own conversation id (ACP session/load), when it gave one. */
  readonly agentSessionId: string | null;
}

/** What the starter needs to run an agent: the launch, and how the transport is made. */
export interface Launch {
  readonly sessionId: string;
  readonly agent: AgentDefinition;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly transport: "pty" | "acp";
  readonly resume: { readonly agentSessionId: string | null } | null;
  /** Variables passed to the agent on purpose (env.pass) and set: a chat signs in with a key among them. */
  readonly passedVariables?: readonly string[];
}

export type TransportFactory = (launch: Launch) => Promise<LiveTransport>;

export interface StartResult {
  readonly session: SessionView;
  readonly attach: AttachInfo;
}
