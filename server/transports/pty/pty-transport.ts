// A TerminalSession as a LiveTransport: an agent in a pseudo-terminal (pty), or the shared
// `tmux attach` pty of "Open in browser". A thin wrapper over TerminalSession's own API.
import { tailLines, type LiveTransport, type TransportExit } from "../live-transport.ts";
import type { TerminalFrame } from "./terminal-frames.ts";
import { TerminalSession, type TerminalSessionOptions } from "./terminal-session.ts";
import type { ScreenPreview } from "./screen-preview.ts";

/** What node-pty's child prints when exec fails (the program is not runnable). */
const EXEC_FAILED = /^execvp\(3\) failed\.:?(.*)$/m;

export class PtyTransport implements LiveTransport {
  readonly view = "terminal" as const;
  readonly agentSessionId = null;

  private constructor(
    readonly name: string,
    private readonly session: TerminalSession,
  ) {}

  static start(opts: TerminalSessionOptions, name = "pty"): PtyTransport {
    return new PtyTransport(name, TerminalSession.start(opts));
  }

  get lastSeq(): number {
    return this.session.lastSeq;
  }

  snapshotTranscript(): Promise<string> {
    return this.session.snapshotTranscript();
  }

  lastLines(transcript: string | null): string[] {
    return tailLines(transcript);
  }

  startupFailure(transcript: string | null): string | null {
    // node-pty forks, then the exec fails in the child: the program never ran.
    const failed = transcript ? EXEC_FAILED.exec(transcript) : null;
    return failed ? `the program could not be run (${failed[1]?.trim() || "exec failed"})` : null;
  }

  onExit(cb: (exit: TransportExit) => void): { dispose(): void } {
    return this.session.onExit(({ exitCode }) => cb({ exitCode }));
  }

  screenPreview(): Promise<ScreenPreview | null> {
    return this.session.screenPreview().catch(() => null);
  }

  terminal(): TerminalSession {
    return this.session;
  }

  chat(): undefined {
    return undefined;
  }

  async attachTerminal(viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<boolean> {
    // Live from here on (typing reaches the program); the replay follows on `send` without being
    // waited for. One that fails has detached its viewer and said so in the log (terminal-session.ts).
    const { replayed } = this.session.attachNow(viewerId, send, sinceSeq === undefined ? undefined : { sinceSeq });
    replayed.catch(() => undefined);
    return true;
  }

  async attachChat(): Promise<boolean> {
    return false;
  }

  detach(viewerId: string): void {
    this.session.detach(viewerId);
  }

  kill(): void {
    this.session.kill();
  }

  dispose(): void {
    this.session.dispose();
  }

  async flushed(): Promise<void> {}
}
