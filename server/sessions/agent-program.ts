// Which program a start runs: the agent asked for, its terminal or ACP command found on this
// machine, and the arguments (a continued terminal session resumes the agent's last conversation).
// A start that cannot run says why, in words the learner can act on.
import type { AgentDefinition } from "../agents/agent-catalog.ts";
import type { AgentRegistry } from "../agents/agent-registry.ts";
import { SessionError } from "./session-errors.ts";

export interface AgentProgram {
  readonly agent: AgentDefinition;
  readonly command: string;
  readonly args: readonly string[];
}

export function agentProgram(
  agents: AgentRegistry,
  input: { readonly agent: string; readonly transport: "pty" | "acp" | "tmux" },
  continuing: boolean,
): AgentProgram {
  const agent = agents.find(input.agent);
  if (!agent) {
    const names = agents
      .definitions()
      .map((a) => a.name)
      .join(", ");
    throw new SessionError("agent-unknown", `There is no agent called "${input.agent}". Choose one of: ${names}.`, { field: "agent" });
  }
  const program = input.transport === "acp" ? agent.acp : { command: agent.command, args: agent.args };
  if (!program) {
    throw new SessionError("no-acp", `${agent.label} does not speak the Agent Client Protocol here: choose the terminal (pty) for it.`, {
      field: "transport",
    });
  }
  const command = agents.resolveExecutable(program.command);
  if (!command) {
    const installHint = input.transport === "acp" ? (agent.acpInstallHint ?? agent.installHint) : agent.installHint;
    throw new SessionError("agent-missing", agents.whyNotRunnable(agent.label, program.command, installHint), { installHint });
  }
  // A terminal agent continues its last conversation in the folder with its resume arguments.
  const args = continuing && input.transport !== "acp" && agent.resumeArgs ? agent.resumeArgs : program.args;
  return { agent, command, args };
}
