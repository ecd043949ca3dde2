// "Open in browser" for a CLI session: a pty running `tmux attach` to it, shared by every browser
// viewer of that session. It is a LiveTransport like the agent's own pty.
import { scrubbedEnvironment } from "../../config/agent-env.ts";
import { PtyTransport } from "../pty/pty-transport.ts";
import { attachCommand, type TmuxOptions } from "./tmux-control.ts";

export function startTmuxViewer(
  muxSession: string,
  tmux: TmuxOptions,
  cwd: string,
  resolveExecutable: (command: string) => string | null | undefined,
  mirrorHeapMb?: number,
): PtyTransport {
  const attach = attachCommand(muxSession, tmux);
  return PtyTransport.start(
    {
      command: resolveExecutable(attach.command) ?? attach.command,
      args: attach.args,
      cwd,
      env: { ...scrubbedEnvironment(process.env), TERM: "xterm-256color" },
      cols: 120,
      rows: 36,
      mirrorHeapMb,
    },
    "tmux",
  );
}
