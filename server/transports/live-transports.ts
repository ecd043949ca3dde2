// The adapter for each transport a web session can use: the one place a transport name picks code.
import type { AcpEventLog } from "./acp/acp-transport.ts";
import { AcpTransport } from "./acp/acp-transport.ts";
import { PtyTransport } from "./pty/pty-transport.ts";
import type { LiveTransport } from "./live-transport.ts";

export interface TransportLaunch {
  readonly sessionId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly transport: "pty" | "acp";
  /** Continuing a session: for ACP, the agent's conversation to load when it can. */
  readonly resume: { readonly agentSessionId: string | null } | null;
  /** How to sign in to this agent, shown when it refuses for want of credentials (ACP). */
  readonly signInHint?: string;
  /** Variables passed to the agent on purpose (env.pass) and set: ACP signs in with a key among them. */
  readonly passedVariables?: readonly string[];
}

export interface TransportDeps {
  readonly acpEvents: AcpEventLog;
  readonly acpHandshakeMs: number;
  /** A chat turn with no event from the agent for this long is stopped. */
  readonly acpTurnTimeoutMs: number;
  /** The heap limit of a terminal's mirror, MB (STUDYLOOP_MIRROR_HEAP_MB). */
  readonly mirrorHeapMb?: number;
  readonly log: (line: string) => void;
}

export function startTransport(launch: TransportLaunch, deps: TransportDeps): Promise<LiveTransport> {
  const { sessionId, command, args, cwd, env } = launch;
  switch (launch.transport) {
    case "acp":
      return AcpTransport.start(
        sessionId,
        {
          command,
          args,
          cwd,
          env,
          handshakeTimeoutMs: deps.acpHandshakeMs,
          turnTimeoutMs: deps.acpTurnTimeoutMs,
          ...(launch.signInHint ? { signInHint: launch.signInHint } : {}),
          ...(launch.passedVariables ? { passedVariables: launch.passedVariables } : {}),
          ...(launch.resume?.agentSessionId ? { loadSessionId: launch.resume.agentSessionId } : {}),
        },
        deps.acpEvents,
        deps.log,
      );
    case "pty":
      return Promise.resolve(
        PtyTransport.start({ command, args: [...args], cwd, env, cols: 80, rows: 24, mirrorHeapMb: deps.mirrorHeapMb }),
      );
  }
}
