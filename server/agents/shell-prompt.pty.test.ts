// The shell agent's prompt hook beside whatever PROMPT_COMMAND the learner's ~/.bashrc sets (pyenv
// leaves one ending in ";", bash 5.1+ allows an array): a real interactive bash in a real pty, started
// the way a session starts it, must print no syntax error and still run the learner's own command.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type IPty } from "node-pty";
import { afterEach, describe, expect, it } from "vitest";
import { shellArgs, writeShellPrompt } from "./shell-prompt.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function until(check: () => boolean, what: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; the terminal showed:\n${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs bash as the shell agent with `bashrc` as the learner's ~/.bashrc; types one command; returns what it showed and ran. */
async function session(bashrc: string): Promise<{ screen: string; ran: string[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-prompt-"));
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  const dir = path.join(home, "sessions", "0b5c1a52-5f0e-4bd5-9d49-a8c0e8b1d6f3");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, ".bashrc"), bashrc);
  const args = shellArgs("/bin/bash");
  writeShellPrompt(dir, args);
  const pty: IPty = spawn("/bin/bash", args, {
    cwd: dir,
    cols: 100,
    rows: 30,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, USER: "learner", TERM: "xterm-256color" },
  });
  cleanups.push(() => pty.kill("SIGKILL"));
  let screen = "";
  pty.onData((d) => (screen += d));
  const prompts = () => screen.match(/:study[$#] /g)?.length ?? 0;
  await until(
    () => prompts() >= 1 || /syntax error/.test(screen),
    () => screen,
  );
  pty.write("echo typed-$((40+2))\r");
  await until(
    () => screen.includes("typed-42") && (prompts() >= 2 || /syntax error/.test(screen)),
    () => screen,
  );
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
  pty.write("exit\r");
  await exited;
  const log = path.join(home, "ran");
  const ran = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  return { screen, ran };
}

const RUN = `echo mine >> "$HOME/ran"`;

describe("the shell agent's prompt hook with the learner's PROMPT_COMMAND", () => {
  it.each([
    ["a string ending in ';' (pyenv)", `PROMPT_COMMAND='${RUN};'`],
    ["a string ending in '; ' and newlines", `PROMPT_COMMAND=$'${RUN.replace(/"/g, '\\"')}; \\n\\n  '`],
    ["a plain string", `PROMPT_COMMAND='${RUN}'`],
    ["a string ending in '&'", `PROMPT_COMMAND='${RUN} &'`],
  ])("%s: no syntax error, the learner's command runs before each prompt", async (_name, line) => {
    const { screen, ran } = await session(`${line}\n`);
    expect(screen).not.toMatch(/syntax error|command not found/);
    expect(screen).toContain("typed-42");
    // Before the first prompt and the one after the typed command ("&" may still be writing the second).
    expect(ran.filter((l) => l === "mine").length).toBeGreaterThanOrEqual(line.endsWith("&'") ? 1 : 2);
  });

  it("an array (bash 5.1+): every element still runs, no syntax error", async () => {
    const { screen, ran } = await session(`PROMPT_COMMAND=('echo one >> "$HOME/ran";' 'echo two >> "$HOME/ran"')\n`);
    expect(screen).not.toMatch(/syntax error|command not found/);
    expect(ran.filter((l) => l === "one").length).toBeGreaterThanOrEqual(2);
    expect(ran.filter((l) => l === "two").length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ["empty", "PROMPT_COMMAND=\n"],
    ["unset", "unset PROMPT_COMMAND\n"],
    ["no .bashrc line at all", ""],
  ])("%s: the short prompt, no error", async (_name, bashrc) => {
    const { screen, ran } = await session(bashrc);
    expect(screen).not.toMatch(/syntax error|command not found/);
    expect(screen).toMatch(/:study[$#] /);
    expect(ran).toEqual([]);
  });
});
