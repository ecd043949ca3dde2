// The sessions this server process owns right now: the reservations being started and the live ones.
// Owned by SessionService; nothing else mutates it.
import type { AcpSession } from "../transports/acp/acp-session.ts";
import type { AcpFanout } from "../transports/acp/acp-fanout.ts";
import type { TerminalSession } from "../transports/pty/terminal-session.ts";

/** What runs the agent: a terminal (pty) or a protocol connection (acp). */
export type LiveRunner =
  | { readonly kind: "pty"; readonly terminal: TerminalSession }
  | { readonly kind: "acp"; readonly acp: AcpSession; readonly fanout: AcpFanout };

/** The part every runner has: what the lifecycle (checkpoint, end, kill) needs. */
export interface AgentProcess {
  readonly lastSeq: number;
  snapshotTranscript(): Promise<string>;
  kill(): void;
  dispose(): void;
}

export function agentProcess(runner: LiveRunner): AgentProcess {
  return runner.kind === "pty" ? runner.terminal : runner.acp;
}

export interface LiveSession {
  readonly id: string;
  readonly runner: LiveRunner;
  readonly agentLabel: string;
  readonly startedAt: Date;
  /** Socket ids of the viewers attached now. */
  readonly viewers: Set<string>;
  attachedOnce: boolean;
  /** When the last viewer left (start of the grace window); null while someone watches. */
  lastViewerLeftAt: Date | null;
  /** Output number covered by the last transcript checkpoint. */
  checkpointSeq: number;
  lastCheckpointAt: number;
  ending: boolean;
}

export class LiveRegistry {
  private readonly reservations = new Set<string>();
  private readonly live = new Map<string, LiveSession>();

  reserve(id: string): void {
    this.reservations.add(id);
  }

  release(id: string): void {
    this.reservations.delete(id);
  }

  add(session: LiveSession): void {
    this.reservations.delete(session.id);
    this.live.set(session.id, session);
  }

  remove(id: string): void {
    this.live.delete(id);
    this.reservations.delete(id);
  }

  get(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  reserving(id: string): boolean {
    return this.reservations.has(id);
  }

  all(): LiveSession[] {
    return [...this.live.values()];
  }
}
