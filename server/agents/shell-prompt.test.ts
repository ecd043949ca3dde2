// The shell agent's prompt, shown by a real bash started the way a session starts it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SHELL_RC, shellArgs, writeShellPrompt } from "./shell-prompt.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The prompt bash shows in `cwd` (after its PROMPT_COMMAND), started with the session's rc file and a HOME of its own. */
function promptIn(sessionDir: string, cwd: string, home: string): string {
  const result = spawnSync(
    "bash",
    ["--rcfile", path.join(sessionDir, SHELL_RC), "-i", "-c", 'eval "$PROMPT_COMMAND"; printf "%s" "${PS1@P}"'],
    {
      cwd,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, USER: "learner" } as unknown as NodeJS.ProcessEnv,
    },
  );
  return result.stdout;
}

describe("the shell agent's prompt", () => {
  it.each([
    ["/bin/bash", ["--rcfile", SHELL_RC]],
    ["/usr/local/bin/bash", ["--rcfile", SHELL_RC]],
    ["/bin/zsh", []],
    ["/bin/sh", []],
  ])("%s starts with %j", (shell, args) => {
    expect(shellArgs(shell)).toEqual(args);
  });

  it("reads the folder as study, keeps the learner's .bashrc, and is short", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-home-"));
    const session = path.join(home, ".local", "share", "studyloop", "sessions", "0b5c1a52-5f0e-4bd5-9d49-a8c0e8b1d6f3");
    dirs.push(home);
    fs.mkdirSync(path.join(session, "notes"), { recursive: true });
    fs.writeFileSync(path.join(home, ".bashrc"), "export FROM_BASHRC=yes\nPS1='long \\w $ '\n");
    expect(writeShellPrompt(session, shellArgs("/bin/bash"))).toBe(path.join(session, SHELL_RC));

    const here = promptIn(session, session, home);
    expect(here).toMatch(/^\S+@\S+:study[$#] $/);
    expect(here.length).toBeLessThan(40);
    expect(promptIn(session, path.join(session, "notes"), home)).toMatch(/:study\/notes[$#] $/);
    expect(promptIn(session, home, home)).toMatch(/:~[$#] $/);
    const bashrcRan = spawnSync("bash", ["--rcfile", path.join(session, SHELL_RC), "-i", "-c", 'printf "%s" "$FROM_BASHRC"'], {
      cwd: session,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home } as unknown as NodeJS.ProcessEnv,
    });
    expect(bashrcRan.stdout).toBe("yes");
  });

  it("writes nothing for other shells", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-shell-"));
    dirs.push(dir);
    expect(writeShellPrompt(dir, shellArgs("/bin/zsh"))).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
