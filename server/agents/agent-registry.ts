// Finds which agents are installed (PATH lookup) and reads the learner's studyloop.config.json.
// The config is read on every call: it is tiny, and edits apply without a restart.
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

export class AgentRegistry {
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

  /** A broken config never stops the server: its agents are left out and the problem is shown. */
  private readConfig(): { config: AgentConfigFile; problem: string | null } {
    const file = path.join(this.dataDir, CONFIG_FILE_NAME);
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
