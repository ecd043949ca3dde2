// The tutor agents StudyLoop knows: built-in definitions plus the learner's own from
// studyloop.config.json. Pure data and parsing; PATH lookup lives in agent-registry.ts.
import { shellArgs } from "./shell-prompt.ts";
import { z } from "zod";

export const AGENT_NAME = /^[a-z0-9-]{1,40}$/;

const CommandSchema = z.object({
  command: z.string().min(1, "needs a command"),
  args: z.array(z.string()).default([]),
});

export const CustomAgentSchema = CommandSchema.extend({
  label: z.string().min(1).max(80).optional(),
  acp: CommandSchema.optional(),
  installHint: z.string().max(300).optional(),
});

export const AgentConfigFileSchema = z.object({
  agents: z
    .record(z.string().regex(AGENT_NAME, "agent names use only a-z, 0-9 and -"), CustomAgentSchema)
    .default({}),
});

export type AgentConfigFile = z.infer<typeof AgentConfigFileSchema>;

export interface AgentDefinition {
  readonly name: string;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /** How the agent speaks the Agent Client Protocol, when it does. */
  readonly acp?: { readonly command: string; readonly args: readonly string[] };
  /** Files in the session directory the agent reads its instructions from on its own. */
  readonly instructionFiles: readonly string[];
  readonly installHint: string;
  readonly source: "built-in" | "config" | "shell";
}

/** Every agent gets TUTOR.md; these also get the file their program reads by itself. */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "claude",
    label: "Claude Code",
    command: "claude",
    args: [],
    acp: { command: "claude-code-acp", args: [] },
    instructionFiles: ["CLAUDE.md"],
    installHint: "Install Claude Code with `npm install -g @anthropic-ai/claude-code`, then run `claude` once to sign in.",
    source: "built-in",
  },
  {
    name: "codex",
    label: "Codex CLI",
    command: "codex",
    args: [],
    acp: { command: "codex-acp", args: [] },
    instructionFiles: ["AGENTS.md"],
    installHint: "Install the Codex CLI with `npm install -g @openai/codex`, then run `codex` once to sign in.",
    source: "built-in",
  },
  {
    name: "kiro-cli",
    label: "Kiro CLI",
    command: "kiro-cli",
    args: ["chat"],
    acp: { command: "kiro-cli", args: ["acp"] },
    instructionFiles: [".kiro/steering/tutor.md"],
    installHint: "Install the Kiro CLI following kiro.dev/docs/cli, then run `kiro-cli login`.",
    source: "built-in",
  },
  {
    name: "gemini",
    label: "Gemini CLI",
    command: "gemini",
    args: [],
    acp: { command: "gemini", args: ["--experimental-acp"] },
    instructionFiles: ["GEMINI.md"],
    installHint: "Install the Gemini CLI with `npm install -g @google/gemini-cli`, then run `gemini` once to sign in.",
    source: "built-in",
  },
  {
    name: "opencode",
    label: "opencode",
    command: "opencode",
    args: [],
    acp: { command: "opencode", args: ["acp"] },
    instructionFiles: ["AGENTS.md"],
    installHint: "Install opencode with `npm install -g opencode-ai`, then run `opencode auth login`.",
    source: "built-in",
  },
];

export function shellAgent(shell: string | undefined): AgentDefinition {
  const command = shell && shell.length > 0 ? shell : "/bin/sh";
  return {
    name: "shell",
    label: "Your shell",
    command,
    // bash gets a short prompt in the session folder (shell-prompt.ts).
    args: shellArgs(command),
    instructionFiles: [],
    installHint: "Set the SHELL environment variable to your shell's path.",
    source: "shell",
  };
}

/**
 * The agents in the order the study page offers them: the learner's own first (they chose them on
 * purpose), then the built-ins they did not override, then the plain shell.
 */
export function mergeAgents(config: AgentConfigFile, shell: string | undefined): AgentDefinition[] {
  const custom: AgentDefinition[] = Object.entries(config.agents).map(([name, a]) => {
    const builtIn = BUILT_IN_AGENTS.find((b) => b.name === name);
    return {
      name,
      label: a.label ?? builtIn?.label ?? name,
      command: a.command,
      args: a.args,
      acp: a.acp ?? builtIn?.acp,
      instructionFiles: builtIn?.instructionFiles ?? [],
      installHint: a.installHint ?? `Install \`${a.command}\` or fix the "${name}" entry in studyloop.config.json.`,
      source: "config",
    };
  });
  const taken = new Set(custom.map((a) => a.name));
  const rest = BUILT_IN_AGENTS.filter((a) => !taken.has(a.name));
  const shellDef = taken.has("shell") ? [] : [shellAgent(shell)];
  return [...custom, ...rest, ...shellDef];
}
