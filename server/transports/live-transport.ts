// What the session core needs from whatever runs an agent (a pty, an ACP connection, or the shared
// `tmux attach` pty behind "Open in browser"): the lifecycle (transcript, exit, kill) and viewers.
// Only the adapters know their transport; nothing else branches on it.
import type { TerminalSession } from "./pty/terminal-session.ts";
import type { AcpSession } from "./acp/acp-session.ts";
import type { AcpEventRecord } from "./acp/acp-events.ts";
import type { TerminalFrame } from "./pty/terminal-frames.ts";
import type { ScreenPreview } from "./pty/screen-preview.ts";

export interface TransportExit {
  readonly exitCode: number;
  /** Why, when the adapter knows (an ACP handshake failure, a program that could not be run). */
  readonly detail?: string;
}

/** How a page attaches: the socket event it emits and the view it renders. */
export type ViewKind = "terminal" | "chat";

export interface LiveTransport {
  /** The stored transport name ("pty", "acp", "tmux"). */
  readonly name: string;
  readonly view: ViewKind;
  /** The number of the last output chunk or event: a checkpoint is due when it moved. */
  readonly lastSeq: number;
  /** The agent's own id for its conversation (ACP), stored for "Continue this session". */
  readonly agentSessionId: string | null;
  snapshotTranscript(): Promise<string>;
  /** The last few lines of what the agent printed, as plain text (for a start that failed). */
  lastLines(transcript: string | null): string[];
  /**
   * Rewrites an exit the adapter understands better than "exited with code N" (node-pty's exec
   * failure is a program that never ran): a startup failure's detail, or null.
   */
  startupFailure(transcript: string | null): string | null;
  onExit(cb: (exit: TransportExit) => void): { dispose(): void };
  screenPreview(): Promise<ScreenPreview | null>;
  /** The terminal viewers type into, for a terminal transport. */
  terminal(): TerminalSession | undefined;
  /** The chat, for an ACP transport. */
  chat(): AcpSession | undefined;
  /**
   * A terminal viewer: one replay (or a resume from sinceSeq), then live output; false for a chat.
   * Resolves once the viewer is registered (its input accepted); the replay may still be on its way.
   */
  attachTerminal(viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<boolean>;
  /** A chat viewer: stored events after sinceSeq, then each new one; false for a terminal. */
  attachChat(viewerId: string, send: (event: AcpEventRecord) => void, sinceSeq: number): Promise<boolean>;
  detach(viewerId: string): void;
  kill(): void;
  dispose(): void;
  /** Resolves once everything the agent sent so far is stored (ACP events); at once for a terminal. */
  flushed(): Promise<void>;
}

/**
 * Escape sequences and control characters, for turning a transcript into readable lines: CSI, OSC,
 * DCS/SOS/PM/APC strings, and the two-char escapes (ESC 7 and ESC 8 save and restore the cursor, ESC (
 * B picks a charset...), then the C0 controls left.
 */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]|[\x00-\x08\x0b-\x1f\x7f]/g;
/** Cursor forward (CSI n C): how a serialized screen writes the blank cells between words. */
const CURSOR_FORWARD = /\x1b\[(\d*)C/g;

/**
 * The last `count` non-blank lines of a transcript (the mirror's serialized screen and scrollback),
 * escape sequences removed, each at most 200 chars. Blank cells come back as spaces: agents that
 * place each word with a cursor move (Claude Code) would otherwise read "UnabletoconnecttoAnthropic".
 */
export function tailLines(transcript: string | null, count = 8): string[] {
  if (!transcript) return [];
  const lines = transcript
    .replace(/\r\n?/g, "\n")
    .replace(CURSOR_FORWARD, (_, n: string) => " ".repeat(Math.min(Math.max(Number(n), 1), 1_000)))
    .replace(ANSI, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim().length > 0);
  return lines.slice(-count).map((line) => (line.length > 200 ? `${line.slice(0, 199)}…` : line));
}
