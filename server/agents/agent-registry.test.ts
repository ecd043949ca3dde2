// The learner's studyloop.config.json: edits apply without a restart, a broken file is explained and
// its agents left out, a deleted one falls back to the built-in agents.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_FILE_NAME } from "../config/paths.ts";
import { AgentRegistry } from "./agent-registry.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(): { registry: AgentRegistry; write: (text: string) => void; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-agents-"));
  dirs.push(dir);
  const file = path.join(dir, CONFIG_FILE_NAME);
  return { registry: new AgentRegistry(dir, { ...process.env, PATH: "/usr/bin:/bin" }), write: (text) => fs.writeFileSync(file, text), file };
}

const names = (registry: AgentRegistry) => registry.list().map((agent) => agent.name);

describe("AgentRegistry config", () => {
  it("applies each edit to the file at the next call", () => {
    const { registry, write, file } = setup();
    expect(names(registry)).not.toContain("tutor");
    write(JSON.stringify({ agents: { tutor: { command: "cat", label: "Tutor" } } }));
    expect(registry.find("tutor")?.label).toBe("Tutor");
    write(JSON.stringify({ agents: { tutor: { command: "cat", label: "Night tutor" } } }));
    expect(registry.find("tutor")?.label).toBe("Night tutor");

    write("{ not json");
    expect(registry.configProblem()).toMatch(/is not valid JSON/);
    expect(names(registry)).not.toContain("tutor");

    fs.rmSync(file);
    expect(registry.configProblem()).toBeNull();
    expect(names(registry)).toContain("claude");
  });
});
