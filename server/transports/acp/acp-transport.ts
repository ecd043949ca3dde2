// An ACP agent as a LiveTransport: AcpSession (the connection) and AcpFanout (its viewers), with
// each event stored in arrival order before it reaches a viewer (persist, then publish).
import { tailLines, type LiveTransport, type TransportExit } from "../live-transport.ts";
import type { AcpSession, AcpSpawnOptions } from "./acp-session.ts";
import { AcpFanout } from "./acp-fanout.ts";
import type { AcpEventRecord } from "./acp-events.ts";

/** Where the conversation is kept (the acp_events table, behind the session core's store). */
export interface AcpEventLog {
  append(sessionId: string, event: AcpEventRecord): Promise<void>;
  after(sessionId: string, afterSeq: number): Promise<AcpEventRecord[]>;
}

export class AcpTransport implements LiveTransport {
  readonly name = "acp";
  readonly view = "chat" as const;
  private readonly fanout = new AcpFanout();
  /** The chain of event writes: events are stored one after another, in order. */
  private writes: Promise<void> = Promise.resolve();
  private session: AcpSession | undefined;

  private constructor(
    private readonly sessionId: string,
    private readonly eventLog: AcpEventLog,
    private readonly log: (line: string) => void,
  ) {}

  /** Spawns the agent and completes the handshake, or throws (after the writes so far are stored). */
  static async start(sessionId: string, opts: AcpSpawnOptions, eventLog: AcpEventLog, log: (line: string) => void): Promise<AcpTransport> {
    const transport = new AcpTransport(sessionId, eventLog, log);
    // Loaded with the first chat session: the protocol's SDK is memory an idle server need not hold.
    const { AcpSession } = await import("./acp-session.ts");
    try {
      transport.session = await AcpSession.start({ ...opts, record: (event) => transport.record(event) });
    } finally {
      await transport.writes;
    }
    return transport;
  }

  private get acp(): AcpSession {
    return this.session!;
  }

  get lastSeq(): number {
    return this.acp.lastSeq;
  }

  get agentSessionId(): string | null {
    return this.acp.sessionIdAtAgent ?? null;
  }

  snapshotTranscript(): Promise<string> {
    return this.acp.snapshotTranscript();
  }

  lastLines(transcript: string | null): string[] {
    return tailLines(transcript);
  }

  startupFailure(): null {
    return null;
  }

  onExit(cb: (exit: TransportExit) => void): { dispose(): void } {
    return this.acp.onExit(({ exitCode, detail }) => cb({ exitCode, ...(detail ? { detail } : {}) }));
  }

  async screenPreview(): Promise<null> {
    return null;
  }

  terminal(): undefined {
    return undefined;
  }

  chat(): AcpSession {
    return this.acp;
  }

  async attachTerminal(): Promise<boolean> {
    return false;
  }

  async attachChat(viewerId: string, send: (event: AcpEventRecord) => void, sinceSeq: number): Promise<boolean> {
    await this.fanout.attach(viewerId, send, sinceSeq, async (after) => {
      await this.writes;
      return this.eventLog.after(this.sessionId, after);
    });
    return true;
  }

  detach(viewerId: string): void {
    this.fanout.detach(viewerId);
  }

  kill(): void {
    this.session?.kill();
  }

  /** Kills the agent; the events already received are still stored (see `flushed`). */
  dispose(): void {
    this.session?.dispose();
  }

  /** Resolves once every event received so far is stored. */
  flushed(): Promise<void> {
    return this.writes;
  }

  private record(event: AcpEventRecord): void {
    this.writes = this.writes
      .then(async () => {
        await this.eventLog.append(this.sessionId, event);
        this.fanout.publish(event);
      })
      .catch((error: unknown) => this.log(`Session ${this.sessionId}: could not store ACP event ${event.seq}: ${String(error)}`));
  }
}
