// Thin adapter over the tmux command for CLI sessions: create, kill, capture, and the command that
// attaches a terminal. Liveness probing lives with the other owner probes (sessions/owner-probes.ts).
import { execFile, spawnSync } from "node:child_process";

export interface TmuxOptions {
  /** tmux -L NAME: a private tmux server (tests, or STUDYLOOP_TMUX_SOCKET). */
  readonly socket?: string;
}

const TMUX_TIMEOUT_MS = 5_000;

function base(opts: TmuxOptions): string[] {
  return opts.socket ? ["-L", opts.socket] : [];
}

function run(args: string[], opts: TmuxOptions) {
  return spawnSync("tmux", [...base(opts), ...args], { encoding: "utf8", timeout: TMUX_TIMEOUT_MS });
}

/** "tmux 3.3a", or null when tmux is not installed. */
export function tmuxVersion(): string | null {
  const result = spawnSync("tmux", ["-V"], { encoding: "utf8", timeout: TMUX_TIMEOUT_MS });
  return result.status === 0 ? result.stdout.trim() : null;
}

export const TMUX_INSTALL_HINT =
  "tmux is not installed: install it (Debian/Ubuntu: `sudo apt install tmux`, macOS: `brew install tmux`) and try again.";

export class TmuxError extends Error {}

/** A detached tmux session running `command` in `cwd`, with `env` added to its environment. */
export function newSession(
  spec: { name: string; cwd: string; command: readonly string[]; env: Record<string, string>; cols?: number; rows?: number },
  opts: TmuxOptions = {},
): void {
  const envArgs = Object.entries(spec.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const result = run(
    [
      "new-session",
      "-d",
      "-s",
      spec.name,
      "-c",
      spec.cwd,
      "-x",
      String(spec.cols ?? 120),
      "-y",
      String(spec.rows ?? 36),
      ...envArgs,
      "--",
      ...spec.command,
    ],
    opts,
  );
  if (result.status !== 0)
    throw new TmuxError(`tmux could not create session ${spec.name}: ${(result.stderr || result.error?.message || "").trim()}`);
}

export function killSession(name: string, opts: TmuxOptions = {}): boolean {
  return run(["kill-session", "-t", `=${name}`], opts).status === 0;
}

/** The pane's screen and scrollback with colours (for the transcript), or null if tmux cannot say. */
export function capturePane(target: string, opts: TmuxOptions = {}): string | null {
  const result = run(["capture-pane", "-p", "-e", "-J", "-S", "-10000", "-t", target], opts);
  return result.status === 0 ? result.stdout.replace(/\n/g, "\r\n") : null;
}

/**
 * Pipes the pane's output (what its programs write, before tmux draws it) into `command`, which tmux
 * runs with `sh -c` after expanding its formats (so "#" is doubled); `-o` keeps a pipe already open.
 * Its stderr goes to `stderrFile` if given (tmux would drop it). False when tmux refused.
 */
export function pipePane(target: string, command: readonly string[], opts: TmuxOptions & { stderrFile?: string } = {}): boolean {
  const errors = opts.stderrFile ? ` 2>>${shellWords([opts.stderrFile])}` : "";
  const line = `exec ${shellWords(command)}${errors}`.replaceAll("#", "##");
  return run(["pipe-pane", "-O", "-o", "-t", target, line], opts).status === 0;
}

/** The id ("%3") of the target's active pane, or null if tmux cannot say. */
export function paneId(target: string, opts: TmuxOptions = {}): string | null {
  const result = run(["display-message", "-p", "-t", target, "#{pane_id}"], opts);
  const id = result.stdout.trim();
  return result.status === 0 && /^%\d+$/.test(id) ? id : null;
}

/** Is tmux still piping the pane (its reader has not gone away)? Null if tmux cannot say. */
export function panePiped(target: string, opts: TmuxOptions = {}): boolean | null {
  const result = run(["display-message", "-p", "-t", target, "#{pane_pipe}"], opts);
  return result.status === 0 ? result.stdout.trim() === "1" : null;
}

const PANE_SIZE_FORMAT = "#{pane_width}x#{pane_height}";

/** The pane's size, or null if tmux cannot say (the pane or its server is gone). */
export function paneSize(target: string, opts: TmuxOptions = {}): { cols: number; rows: number } | null {
  const result = run(["display-message", "-p", "-t", target, PANE_SIZE_FORMAT], opts);
  return result.status === 0 ? parsePaneSize(result.stdout) : null;
}

/** paneSize without blocking: for a recorder that asks every moment while output flows. */
export function probePaneSize(target: string, opts: TmuxOptions = {}): Promise<{ cols: number; rows: number } | null> {
  return new Promise((resolve) => {
    execFile(
      "tmux",
      [...base(opts), "display-message", "-p", "-t", target, PANE_SIZE_FORMAT],
      { encoding: "utf8", timeout: TMUX_TIMEOUT_MS },
      (error, stdout) => resolve(error ? null : parsePaneSize(stdout)),
    );
  });
}

/** "120x36\n" -> { cols: 120, rows: 36 }; null for anything else. Pure. */
export function parsePaneSize(text: string): { cols: number; rows: number } | null {
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(text.trim());
  const cols = Number(match?.[1]);
  const rows = Number(match?.[2]);
  return match && cols > 0 && rows > 0 ? { cols, rows } : null;
}

/** Words as one POSIX shell command line, each single-quoted (tmux hands pipe-pane's command to sh). Pure. */
export function shellWords(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(" ");
}

/** The program and arguments that attach a terminal (the learner's, or a browser viewer's pty). */
export function attachCommand(name: string, opts: TmuxOptions = {}): { command: string; args: string[] } {
  return { command: "tmux", args: [...base(opts), "attach-session", "-t", `=${name}`] };
}

/** `study-<slug>-<id8>`: readable in `tmux ls`, unique by the id. */
export function tmuxSessionName(topic: string, id: string): string {
  const slug = topic
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 24)
    .replace(/-+$/, "");
  return `study-${slug || "session"}-${id.replace(/-/g, "").slice(0, 8)}`;
}
