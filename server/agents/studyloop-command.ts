// The `studyloop` command inside a session. The tutor instructions tell the agent to run
// `studyloop park "..."` and `studyloop topic ...`, but `npm link` is optional, so the learner's PATH
// may not have it. Each data directory gets a small launcher, bin/studyloop, that runs this
// installation's CLI with the node running the server, and the agent's PATH starts with that folder.
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../config/paths.ts";

export const CLI_ENTRY = path.join(PROJECT_ROOT, "bin", "studyloop.js");

export function commandDir(dataDir: string): string {
  return path.join(dataDir, "bin");
}

/** Single-quotes a word for sh. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function launcherScript(nodePath: string, entry: string = CLI_ENTRY): string {
  return `#!/bin/sh\n# Written by StudyLoop: runs this installation's studyloop command.\nexec ${shellQuote(nodePath)} ${shellQuote(entry)} "$@"\n`;
}

/** Writes <dataDir>/bin/studyloop (when missing or different) and returns its folder. */
export function installCommand(dataDir: string, nodePath: string = process.execPath): string {
  const dir = commandDir(dataDir);
  const file = path.join(dir, "studyloop");
  const script = launcherScript(nodePath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
  if (current !== script) fs.writeFileSync(file, script, { mode: 0o700 });
  fs.chmodSync(file, 0o700);
  return dir;
}

/** The agent's environment with the launcher's folder first on its PATH. */
export function withCommandOnPath(env: Record<string, string>, dir: string): Record<string, string> {
  const rest = (env.PATH ?? "").split(path.delimiter).filter((p) => p && p !== dir);
  return { ...env, PATH: [dir, ...rest].join(path.delimiter) };
}
