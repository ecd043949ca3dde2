// The built-in shell agent's prompt. The session folder's path (<data dir>/sessions/<uuid>) made
// bash's usual prompt ~85 characters, wrapping on a laptop and taking three lines on a phone. bash is
// started with a small rc file in the session folder that reads the learner's own ~/.bashrc first,
// then shows the folder as "study": `you@host:study$`, `you@host:study/notes$`.
import fs from "node:fs";
import path from "node:path";

/** The rc file, relative to the session folder (bash starts there, so the relative path resolves). */
export const SHELL_RC = ".studyloop-bashrc";

/** The shell agent's arguments: the rc file for bash; other shells keep their own prompt. */
export function shellArgs(shell: string): string[] {
  return path.basename(shell) === "bash" ? ["--rcfile", SHELL_RC] : [];
}

/** bash single-quoted: the folder's path as a literal in the rc file. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function bashrc(sessionDir: string): string {
  return [
    "# Written by StudyLoop for this session's shell: your own ~/.bashrc, then a short prompt.",
    '[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"',
    `__studyloop_dir=${quoted(sessionDir)}`,
    // Before each prompt: the session folder reads as "study"; anywhere else, the usual \w.
    "__studyloop_prompt() {",
    '  case "$PWD" in',
    "    \"$__studyloop_dir\") PS1='\\u@\\h:study\\$ ' ;;",
    '    "$__studyloop_dir"/*) PS1="\\u@\\h:study/${PWD#"$__studyloop_dir"/}\\\\$ " ;;',
    "    *) PS1='\\u@\\h:\\w\\$ ' ;;",
    "  esac",
    "}",
    // Beside the learner's own PROMPT_COMMAND, whatever its shape: bash 5.1+ runs every element of
    // an array, so the hook is one more element; a string gets it on a line of its own (a "; "
    // joined after "x;" or a trailing newline, as pyenv leaves it, is a syntax error at each prompt).
    'if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]] &&',
    "  (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then",
    "  PROMPT_COMMAND+=(__studyloop_prompt)",
    "else",
    '  PROMPT_COMMAND="${PROMPT_COMMAND:+$PROMPT_COMMAND',
    '}__studyloop_prompt"',
    "fi",
    "",
  ].join("\n");
}

/** Writes the rc file when the agent is the bash shell agent; returns the path written, if any. */
export function writeShellPrompt(sessionDir: string, args: readonly string[]): string | undefined {
  if (!args.includes(SHELL_RC)) return undefined;
  const file = path.join(sessionDir, SHELL_RC);
  fs.writeFileSync(file, bashrc(sessionDir), { mode: 0o600 });
  return file;
}
