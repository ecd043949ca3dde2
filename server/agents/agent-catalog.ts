// The tutor agents StudyLoop knows: built-in definitions plus the learner's own from
// studyloop.config.json. Pure data and parsing; PATH lookup lives in agent-registry.ts.
import { shellArgs } from "./shell-prompt.ts";
import { DEMO_AGENT_LABEL, DEMO_AGENT_NAME, DEMO_CHAT_SCRIPT, DEMO_TUTOR_SCRIPT } from "./demo/demo-agent.ts";
import { z } from "zod";

export const AGENT_NAME = /^[a-z0-9-]{1,40}$/;

const CommandSchema = z.object({
  command: z.string().min(1, "needs a command"),
  args: z.array(z.string()).default([]),
});

/** An environment variable's name; StudyLoop's own settings and secrets can never be passed. */
const PassedVariable = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,100}$/, "is not an environment variable's name")
  .refine(
    (name) => !/^(STUDYLOOP_|NEXT_|__NEXT|PRISMA_|NODE_OPTIONS|NODE_ENV|TSX_)/i.test(name),
    "is one of StudyLoop's own settings, never passed to an agent",
  );

/**
 * An agent of the learner's own, or settings for a built-in one (then `command` may be left out):
 * `"gemini": {"env": {"pass": ["GEMINI_API_KEY"]}}` passes that variable to gemini and no other agent.
 */
export const CustomAgentSchema = z.object({
  command: z.string().min(1, "needs a command").optional(),
  args: z.array(z.string()).optional(),
  label: z.string().min(1).max(80).optional(),
  /** The arguments that continue the agent's last conversation in the folder (instead of args). */
  resumeArgs: z.array(z.string()).optional(),
  acp: CommandSchema.optional(),
  installHint: z.string().max(300).optional(),
  env: z
    .object({ pass: z.array(PassedVariable).max(50).default([]) })
    .strict()
    .optional(),
});

export const AgentConfigFileSchema = z.object({
  agents: z
    .record(z.string().regex(AGENT_NAME, "agent names use only a-z, 0-9 and -"), CustomAgentSchema)
    .default({})
    .superRefine((agents, ctx) => {
      for (const [name, a] of Object.entries(agents)) {
        if (!a.command && !BUILT_IN_AGENTS.some((b) => b.name === name)) {
          ctx.addIssue({ code: "custom", path: [name, "command"], message: "needs a command (only built-in agents can leave it out)" });
        }
      }
    }),
});

export type AgentConfigFile = z.infer<typeof AgentConfigFileSchema>;

export interface AgentDefinition {
  readonly name: string;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /**
   * The arguments (instead of args) that continue the agent's most recent conversation in its
   * folder: "Continue this session" after a crash. Checked against each CLI's own --help.
   */
  readonly resumeArgs?: readonly string[];
  /** How the agent speaks the Agent Client Protocol, when it does. */
  readonly acp?: { readonly command: string; readonly args: readonly string[] };
  /** Files in the session directory the agent reads its instructions from on its own. */
  readonly instructionFiles: readonly string[];
  readonly installHint: string;
  /** How to install the chat's program when it is not the terminal's (an ACP adapter). */
  readonly acpInstallHint?: string;
  /** How to sign in, shown when the agent refuses for want of credentials. */
  readonly signInHint?: string;
  /** Variables of StudyLoop's environment passed to this agent, past the secrets scrub. */
  readonly envPass: readonly string[];
  readonly source: "built-in" | "config" | "shell";
  /** What the start form says about the agent when it is chosen. */
  readonly blurb?: string;
}

/** Every agent gets TUTOR.md; these also get the file their program reads by itself. */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "claude",
    label: "Claude Code",
    command: "claude",
    args: [],
    resumeArgs: ["--continue"],
    acp: { command: "claude-code-acp", args: [] },
    instructionFiles: ["CLAUDE.md"],
    installHint: "Install Claude Code with `npm install -g @anthropic-ai/claude-code`, then run `claude` once to sign in.",
    acpInstallHint:
      "The chat needs Claude Code's ACP adapter: `npm install -g @zed-industries/claude-code-acp` (and Claude Code itself, signed in).",
    signInHint:
      'To sign in, run `claude /login` in a terminal on this machine as the user StudyLoop runs as; or set ANTHROPIC_API_KEY and pass it to "claude" in studyloop.config.json (`"env": {"pass": ["ANTHROPIC_API_KEY"]}`).',
    envPass: [],
    source: "built-in",
  },
  {
    name: "codex",
    label: "Codex CLI",
    command: "codex",
    args: [],
    resumeArgs: ["resume", "--last"],
    acp: { command: "codex-acp", args: [] },
    instructionFiles: ["AGENTS.md"],
    installHint: "Install the Codex CLI with `npm install -g @openai/codex`, then run `codex` once to sign in.",
    acpInstallHint: "The chat needs the Codex ACP adapter: `npm install -g @zed-industries/codex-acp` (and the Codex CLI, signed in).",
    signInHint:
      'To sign in, run `codex login` in a terminal on this machine; or set OPENAI_API_KEY and pass it to "codex" in studyloop.config.json (`"env": {"pass": ["OPENAI_API_KEY"]}`).',
    envPass: [],
    source: "built-in",
  },
  {
    name: "kiro-cli",
    label: "Kiro CLI",
    command: "kiro-cli",
    args: ["chat"],
    resumeArgs: ["chat", "--resume"],
    acp: { command: "kiro-cli", args: ["acp"] },
    instructionFiles: [".kiro/steering/tutor.md"],
    installHint: "Install the Kiro CLI following kiro.dev/docs/cli, then run `kiro-cli login`.",
    signInHint: "To sign in, run `kiro-cli login` in a terminal on this machine.",
    envPass: [],
    source: "built-in",
  },
  {
    name: "gemini",
    label: "Gemini CLI",
    command: "gemini",
    args: [],
    resumeArgs: ["--resume", "latest"],
    acp: { command: "gemini", args: ["--experimental-acp"] },
    instructionFiles: ["GEMINI.md"],
    installHint: "Install the Gemini CLI with `npm install -g @google/gemini-cli`, then run `gemini` once to sign in.",
    signInHint:
      'To sign in, run `gemini` in a terminal on this machine and choose "Login with Google"; or set GEMINI_API_KEY and pass it to "gemini" in studyloop.config.json (`"env": {"pass": ["GEMINI_API_KEY"]}`).',
    envPass: [],
    source: "built-in",
  },
  {
    name: "opencode",
    label: "opencode",
    command: "opencode",
    args: [],
    resumeArgs: ["--continue"],
    acp: { command: "opencode", args: ["acp"] },
    instructionFiles: ["AGENTS.md"],
    installHint: "Install opencode with `npm install -g opencode-ai`, then run `opencode auth login`.",
    signInHint: "To sign in, run `opencode auth login` in a terminal on this machine; without a provider opencode's answers never come.",
    envPass: [],
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
    envPass: [],
    source: "shell",
  };
}

/** The demo tutor: always there, run by the server's own node (server/agents/demo/). */
export function demoAgent(nodePath: string = process.execPath): AgentDefinition {
  return {
    name: DEMO_AGENT_NAME,
    label: DEMO_AGENT_LABEL,
    command: nodePath,
    args: [DEMO_TUTOR_SCRIPT],
    acp: { command: nodePath, args: [DEMO_CHAT_SCRIPT] },
    instructionFiles: [],
    installHint: "The demo tutor comes with StudyLoop: it runs with the node that runs the server.",
    envPass: [],
    source: "built-in",
    blurb:
      "A script, not an AI: it greets you, parks a thought, marks the topic and writes a review card with the same commands a real tutor uses, then answers a few commands (type help). As a chat it streams an answer with a plan and asks before it writes a card.",
  };
}

/**
 * The agents in the order the study page offers them: the learner's own first (they chose them on
 * purpose), then the built-ins they did not override, then the demo tutor (so it is the one offered
 * first where no AI agent is installed), then the plain shell.
 */
export function mergeAgents(config: AgentConfigFile, shell: string | undefined): AgentDefinition[] {
  const custom: AgentDefinition[] = Object.entries(config.agents).map(([name, a]) => {
    const builtIn = BUILT_IN_AGENTS.find((b) => b.name === name);
    const command = a.command ?? builtIn?.command ?? name;
    const sameProgram = !a.command || a.command === builtIn?.command;
    return {
      name,
      label: a.label ?? builtIn?.label ?? name,
      command,
      args: a.args ?? (sameProgram ? [...(builtIn?.args ?? [])] : []),
      resumeArgs: a.resumeArgs ?? (sameProgram ? builtIn?.resumeArgs : undefined),
      acp: a.acp ?? builtIn?.acp,
      instructionFiles: builtIn?.instructionFiles ?? [],
      installHint:
        a.installHint ??
        (sameProgram && builtIn ? builtIn.installHint : `Install \`${command}\` or fix the "${name}" entry in studyloop.config.json.`),
      // A chat program of the learner's own is named in its own hint (not the terminal's command).
      ...(a.acp
        ? {
            acpInstallHint:
              a.installHint ?? `Install \`${a.acp.command}\` (the chat's program) or fix the "${name}" entry in studyloop.config.json.`,
          }
        : builtIn?.acpInstallHint
          ? { acpInstallHint: builtIn.acpInstallHint }
          : {}),
      ...(builtIn?.signInHint ? { signInHint: builtIn.signInHint } : {}),
      envPass: a.env?.pass ?? [],
      source: builtIn && !a.command ? "built-in" : "config",
    };
  });
  const taken = new Set(custom.map((a) => a.name));
  const rest = BUILT_IN_AGENTS.filter((a) => !taken.has(a.name));
  const shellDef = taken.has("shell") ? [] : [shellAgent(shell)];
  const demo = taken.has(DEMO_AGENT_NAME) ? [] : [demoAgent()];
  return [...custom, ...rest, ...demo, ...shellDef];
}
