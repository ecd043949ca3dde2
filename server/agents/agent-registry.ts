// Finds which agents are installed (PATH lookup) and reads the learner's studyloop.config.json.
// The config is checked on every call (one stat) and read again when it changed: edits apply without
// a restart, and the views of every state read do not parse it each time.
import fs from "node:fs";
import path from "node:path";
import { CONFIG_FILE_NAME } from "../config/paths.ts";
import { passedVariables } from "../config/agent-env.ts";
import { AgentConfigFileSchema, mergeAgents, type AgentConfigFile, type AgentDefinition } from "./agent-catalog.ts";

/** One way of showing an agent: whether its program is installed here, and how to install it. */
export interface TransportAvailability {
  readonly command: string;
  readonly available: boolean;
  readonly installHint?: string;
}

export interface AgentListing {
  readonly name: string;
  readonly label: string;
  readonly command: string;
  /** The agent can be started here at all (as a terminal or as a chat). */
  readonly available: boolean;
  /** What the agent speaks, installed or not. */
  readonly transports: readonly ("pty" | "acp")[];
  /** How to install it when neither way is available. */
  readonly installHint?: string;
  readonly terminal: TransportAvailability;
  /** Absent for an agent that has no Agent Client Protocol program. */
  readonly chat?: TransportAvailability;
  /** Variables passed to this agent on purpose (names only), and the ones named but not set here. */
  readonly env: { readonly pass: readonly string[]; readonly unset: readonly string[] };
  readonly source: AgentDefinition["source"];
  /** What the start form says about the agent when it is chosen. */
  readonly blurb?: string;
}

type ConfigRead = { config: AgentConfigFile; problem: string | null };
const NO_CONFIG: ConfigRead = { config: { agents: {} }, problem: null };

export class AgentRegistry {
  /** The last read of the config, valid while the file's identity, size and mtime are unchanged. */
  private cached: { key: string; read: ConfigRead } | undefined;
  /** The agents merged from that read: every state read asks for their labels. */
  private merged: { read: ConfigRead; shell: string | undefined; agents: readonly AgentDefinition[] } | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  definitions(): readonly AgentDefinition[] {
    const read = this.readConfig();
    const shell = this.env.SHELL;
    if (this.merged?.read !== read || this.merged.shell !== shell) this.merged = { read, shell, agents: mergeAgents(read.config, shell) };
    return this.merged.agents;
  }

  /** A sentence about a broken studyloop.config.json (its agents are left out), or null. */
  configProblem(): string | null {
    return this.readConfig().problem;
  }

  find(name: string): AgentDefinition | undefined {
    return this.definitions().find((a) => a.name === name);
  }

  list(): AgentListing[] {
    return this.definitions().map((a) => {
      const terminal = this.availability(a.command, a.installHint);
      const chat = a.acp ? this.availability(a.acp.command, a.acpInstallHint ?? a.installHint) : undefined;
      const available = terminal.available || chat?.available === true;
      const { passed, unset } = passedVariables(this.env, a.envPass);
      return {
        name: a.name,
        label: a.label,
        command: a.command,
        available,
        transports: a.acp ? ["pty", "acp"] : ["pty"],
        ...(available ? {} : { installHint: terminal.installHint ?? a.installHint }),
        terminal,
        ...(chat ? { chat } : {}),
        env: { pass: passed, unset },
        source: a.source,
        ...(a.blurb ? { blurb: a.blurb } : {}),
      };
    });
  }

  /** A file that is there but not executable is named as such instead of the install hint. */
  private availability(command: string, installHint: string): TransportAvailability {
    const found = lookupExecutable(command, this.env.PATH);
    const available = found.kind === "found";
    const hint = found.kind === "not-executable" ? notRunnableReason(command, found) : installHint;
    return { command, available, ...(available ? {} : { installHint: hint }) };
  }

  resolveExecutable(command: string): string | undefined {
    return findExecutable(command, this.env.PATH);
  }

  /** Why `command` cannot be started, as a sentence: missing from the PATH, or there but not executable. */
  whyNotRunnable(label: string, command: string, installHint: string): string {
    const found = lookupExecutable(command, this.env.PATH);
    if (found.kind === "not-executable") return `${label} cannot be started: ${notRunnableReason(command, found)}`;
    const where = command.includes("/") ? `\`${command}\` does not exist` : `\`${command}\` is not on the PATH`;
    return `${label} is not installed on this machine (${where}). ${installHint}`;
  }

  private readConfig(): ConfigRead {
    const file = path.join(this.dataDir, CONFIG_FILE_NAME);
    let key: string;
    try {
      const stat = fs.statSync(file);
      key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      this.cached = undefined;
      return NO_CONFIG;
    }
    if (this.cached?.key !== key) this.cached = { key, read: this.parseConfig(file) };
    return this.cached.read;
  }

  /** A broken config never stops the server: its agents are left out and the problem is shown. */
  private parseConfig(file: string): ConfigRead {
    const empty: AgentConfigFile = { agents: {} };
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return { config: empty, problem: null };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { config: empty, problem: `${file} is not valid JSON, so its agents are not offered: fix it and reload.` };
    }
    const parsed = AgentConfigFileSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first?.path.join(".") || "the file";
      return {
        config: empty,
        problem: `${file}: ${where}: ${first?.message ?? "is not valid"}. Its agents are not offered until it is fixed.`,
      };
    }
    return { config: parsed.data, problem: null };
  }
}

/** PATH lookup as a shell would do it; a command with a slash is taken as a path. */
export function findExecutable(command: string, pathVar: string | undefined): string | undefined {
  const found = lookupExecutable(command, pathVar);
  return found.kind === "found" ? found.path : undefined;
}

export type ExecutableLookup =
  | { readonly kind: "found"; readonly path: string }
  /** A file by that name exists (the first on the PATH) but this user may not execute it. */
  | { readonly kind: "not-executable"; readonly path: string }
  | { readonly kind: "missing" };

/** The PATH lookup with the reason it failed: a shell also says "Permission denied", not "not found". */
export function lookupExecutable(command: string, pathVar: string | undefined): ExecutableLookup {
  const candidates = command.includes("/")
    ? [path.resolve(command)]
    : (pathVar ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  let notExecutable: string | undefined;
  for (const candidate of candidates) {
    try {
      if (!fs.statSync(candidate).isFile()) continue;
    } catch {
      continue; // not here; keep looking
    }
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return { kind: "found", path: candidate };
    } catch {
      notExecutable ??= candidate;
    }
  }
  return notExecutable ? { kind: "not-executable", path: notExecutable } : { kind: "missing" };
}

function notRunnableReason(command: string, found: { path: string }): string {
  return `\`${found.path}\` exists but is not executable: make it executable (chmod +x ${found.path}) or change "${command}" in studyloop.config.json.`;
}
