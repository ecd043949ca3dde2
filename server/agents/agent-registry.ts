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

export class AgentConfigError extends Error {}

export class AgentRegistry {
  constructor(
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  definitions(): AgentDefinition[] {
    return mergeAgents(this.readConfig(), this.env.SHELL);
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

  resolveExecutable(agent: AgentDefinition): string | undefined {
    return findExecutable(agent.command, this.env.PATH);
  }

  private readConfig(): AgentConfigFile {
    const file = path.join(this.dataDir, CONFIG_FILE_NAME);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return { agents: {} };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AgentConfigError(`${file} is not valid JSON: fix it or move it away to use the built-in agents.`);
    }
    const parsed = AgentConfigFileSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new AgentConfigError(`${file}: ${first?.path.join(".") || "the file"} ${first?.message ?? "is not valid"}.`);
    }
    return parsed.data;
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
