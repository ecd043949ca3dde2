// The learner's studyloop.config.json: edits apply without a restart, a broken file is explained and
// its agents left out, a deleted one falls back to the built-in agents.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_FILE_NAME } from "../config/paths.ts";
import { AgentRegistry, lookupExecutable } from "./agent-registry.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(): { registry: AgentRegistry; write: (text: string) => void; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-agents-"));
  dirs.push(dir);
  const file = path.join(dir, CONFIG_FILE_NAME);
  return {
    registry: new AgentRegistry(dir, { ...process.env, PATH: "/usr/bin:/bin" }),
    write: (text) => fs.writeFileSync(file, text),
    file,
  };
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

describe("AgentRegistry listing", () => {
  it("reports the terminal and the chat separately, each with its own install hint", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-agents-"));
    dirs.push(dir);
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    // claude's terminal program is here, its ACP adapter is not; gemini's one program serves both.
    for (const name of ["claude", "gemini"]) fs.writeFileSync(path.join(bin, name), "#!/bin/sh\n", { mode: 0o755 });
    const registry = new AgentRegistry(dir, { PATH: bin, NODE_ENV: "test" });
    const claude = registry.list().find((a) => a.name === "claude")!;
    expect(claude.available).toBe(true);
    expect(claude.terminal).toEqual({ command: "claude", available: true });
    expect(claude.chat).toMatchObject({ command: "claude-code-acp", available: false });
    expect(claude.chat?.installHint).toMatch(/@zed-industries\/claude-code-acp/);
    const gemini = registry.list().find((a) => a.name === "gemini")!;
    expect(gemini.chat).toEqual({ command: "gemini", available: true });
    const codex = registry.list().find((a) => a.name === "codex")!;
    expect(codex.available).toBe(false);
    expect(codex.terminal.installHint).toMatch(/@openai\/codex/);
    expect(codex.chat?.installHint).toMatch(/codex-acp/);
    expect(registry.list().find((a) => a.name === "shell")?.chat).toBeUndefined();
  });

  it("a chat whose program is missing names that program, not the terminal's (issue 42)", () => {
    const { registry, write } = setup();
    write(JSON.stringify({ agents: { tutor: { command: "bash", acp: { command: "tutor-acp-adapter", args: [] } } } }));
    const tutor = registry.list().find((a) => a.name === "tutor")!;
    expect(tutor.terminal.available).toBe(true);
    expect(tutor.chat).toEqual({
      command: "tutor-acp-adapter",
      available: false,
      installHint: 'Install `tutor-acp-adapter` (the chat\'s program) or fix the "tutor" entry in studyloop.config.json.',
    });
    expect(registry.whyNotRunnable("tutor", "tutor-acp-adapter", tutor.chat!.installHint!)).not.toContain("`bash`");
  });

  it("passes named variables to a named built-in agent without repeating its command", () => {
    const { registry, write } = setup();
    write(JSON.stringify({ agents: { gemini: { env: { pass: ["GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT"] } } } }));
    expect(registry.configProblem()).toBeNull();
    const gemini = registry.find("gemini")!;
    expect(gemini.command).toBe("gemini");
    expect(gemini.acp).toEqual({ command: "gemini", args: ["--experimental-acp"] });
    expect(gemini.envPass).toEqual(["GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT"]);
    expect(gemini.signInHint).toMatch(/GEMINI_API_KEY/);
    expect(registry.find("claude")?.envPass).toEqual([]);
  });

  it.each([
    [{ gemini: { env: { pass: ["STUDYLOOP_SESSION_TOKEN"] } } }, /StudyLoop's own settings/],
    [{ gemini: { env: { pass: ["NOT A NAME"] } } }, /environment variable's name/],
    [{ mine: { env: { pass: ["X"] } } }, /needs a command/],
  ])("refuses %j", (agents, problem) => {
    const { registry, write } = setup();
    write(JSON.stringify({ agents }));
    expect(registry.configProblem()).toMatch(problem);
  });
});

describe("PATH lookup", () => {
  it("tells a file that is not executable from one that is not there", () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bin-"));
    try {
      fs.writeFileSync(path.join(bin, "tutor"), "#!/bin/sh\n", { mode: 0o644 });
      expect(lookupExecutable("tutor", bin)).toEqual({ kind: "not-executable", path: path.join(bin, "tutor") });
      expect(lookupExecutable("nothing-here", bin)).toEqual({ kind: "missing" });
      const registry = new AgentRegistry(bin, { ...process.env, PATH: bin });
      expect(registry.whyNotRunnable("Tutor", "tutor", "Install it.")).toMatch(
        /tutor` exists but is not executable: make it executable \(chmod \+x /,
      );
      expect(registry.whyNotRunnable("Tutor", "nothing-here", "Install it.")).toBe(
        "Tutor is not installed on this machine (`nothing-here` is not on the PATH). Install it.",
      );
      fs.chmodSync(path.join(bin, "tutor"), 0o755);
      expect(lookupExecutable("tutor", bin)).toEqual({ kind: "found", path: path.join(bin, "tutor") });
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
