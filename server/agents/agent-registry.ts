// Finds which agents are installed (PATH lookup) and reads the learner's studyloop.config.json.
// The config is checked on every call (one stat) and read again when it changed: edits apply without
// a restart, and the views of every state read do not parse it each time.
import fs from "node:fs";
import path from "node:path";
import { CONFIG_FILE_NAME } from "../config/paths.ts";
import { AgentConfigFileSchema, mergeAgents, type AgentConfigFile, type AgentDefinition } from "./agent-catalog.ts";

export interface AgentListing {
  readonly name: string;
  readonly label: string;
  readonly command: string;
  readonly available: boolean;
  readonly transports: readonly ("pty" | "acp")[];
  readonly installHint?: string;
  readonly source: AgentDefinition["source"];
}

type ConfigRead = { config: AgentConfigFile; problem: string | null };

export class AgentRegistry {
  /** The last read of the config, valid while the file's identity, size and mtime are unchanged. */
  private cached: { key: string; read: ConfigRead } | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  definitions(): AgentDefinition[] {
    return mergeAgents(this.readConfig().config, this.env.SHELL);
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
      const available = findExecutable(a.command, this.env.PATH) !== undefined;
      return {
        name: a.name,
        label: a.label,
        command: a.command,
        available,
        transports: a.acp ? ["pty", "acp"] : ["pty"],
        ...(available ? {} : { installHint: a.installHint }),
        source: a.source,
      };
    });
  }

  resolveExecutable(command: string): string | undefined {
    return findExecutable(command, this.env.PATH);
  }

  private readConfig(): ConfigRead {
    const file = path.join(this.dataDir, CONFIG_FILE_NAME);
    let key: string;
    try {
      const stat = fs.statSync(file);
      key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      this.cached = undefined;
      return { config: { agents: {} }, problem: null };
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
      return { config: empty, problem: `${file}: ${where}: ${first?.message ?? "is not valid"}. Its agents are not offered until it is fixed.` };
    }
    return { config: parsed.data, problem: null };
  }
}

/** PATH lookup as a shell would do it; a command with a slash is taken as a path. */
export function findExecutable(command: string, pathVar: string | undefined): string | undefined {
  const candidates = command.includes("/")
    ? [path.resolve(command)]
    : (pathVar ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      const stat = fs.statSync(candidate);
      if (stat.isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}
