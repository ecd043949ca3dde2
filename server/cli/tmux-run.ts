// `studyloop _tmux-run`: what tmux runs for a CLI session. It waits (bounded) for the pane's recorder
// (`_record-pane`, the learning record, set up by `studyloop study`), runs the agent in the pane, keeps
// the row's heartbeat fresh (so a tmux-gone session ends at the last moment it was alive), saves the
// pane as the transcript, and records the agent's exit. Internal: not listed in --help.
import { spawn } from "node:child_process";
import { sessionDir } from "../recording/record-files.ts";
import { recorderRunning } from "../recording/recorder-lock.ts";
import { SessionStore } from "../sessions/session-store.ts";
import { agentEnvironment } from "../config/agent-env.ts";
import { installCommand, withCommandOnPath } from "../agents/studyloop-command.ts";
import { capturePane, paneId, panePiped, type TmuxOptions } from "../transports/tmux/tmux-control.ts";
import type { CommandSpec } from "./options.ts";
import { UsageError, parseCommand } from "./options.ts";
import { DATABASE_OPTION, openLocalData } from "./local-data.ts";
import { warn } from "./output.ts";

export const tmuxRunCommand: CommandSpec = {
  name: "_tmux-run",
  summary: "(internal) run a CLI session's agent inside tmux",
  usage: "studyloop _tmux-run --session ID --data-dir D [--database URL]",
  options: [
    { name: "session", kind: "string", value: "ID", description: "The session id." },
    { name: "data-dir", kind: "string", value: "D", description: "Data directory." },
    DATABASE_OPTION,
  ],
};

/** How long the agent waits for its recorder to start (ms): its first screen is recorded, in time. */
const RECORDER_READY_MS = 10_000;

export async function runTmuxRun(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(tmuxRunCommand, argv);
  const id = parsed.options.session as string | undefined;
  if (!id) throw new UsageError("--session is required.");
  const data = await openLocalData(parsed.options["data-dir"] as string | undefined, parsed.options.database as string | undefined);
  const store = new SessionStore(data.db, data.reads);
  const row = await store.byId(id);
  const agent = row ? data.agents.find(row.agent) : undefined;
  if (!row || row.endedAt || !agent) {
    warn(row?.endedAt ? "This study session has already ended." : "This study session cannot be found or its agent is not configured.");
    await data.close();
    return 2;
  }
  const pane = process.env.TMUX_PANE;
  const tmux = { socket: data.settings.STUDYLOOP_TMUX_SOCKET };
  // `studyloop study` had tmux pipe this pane into the recorder as it started it: its first screen is
  // recorded in time once the recorder is ready.
  if (pane && panePiped(pane, tmux)) await recorderReady(sessionDir(data.dataDir, id), pane, tmux);
  const child = spawn(data.agents.resolveExecutable(agent.command) ?? agent.command, [...agent.args], {
    stdio: "inherit",
    // Like a web session's agent: `studyloop park` and `topic` on its PATH. With no server URL they
    // write into the data directory directly (cli/session-writer.ts).
    env: withCommandOnPath(
      agentEnvironment(process.env, {
        id,
        token: process.env.STUDYLOOP_SESSION_TOKEN ?? "",
        serverUrl: null,
        dataDir: data.dataDir,
        // With no server to write through, `studyloop park` and `topic` open this database themselves.
        databaseUrl: data.target.provider === "postgresql" ? data.target.url : null,
      }),
      installCommand(data.dataDir),
    ) as NodeJS.ProcessEnv,
  });

  let stopping = false;
  const heartbeat = setInterval(async () => {
    // A database fault is not an end: the next beat tries again.
    const alive = await store.heartbeatTmux(id, new Date()).catch(() => true);
    // Ended elsewhere (the web's End, or `studyloop study --end`): stop the agent; the reason stands.
    if (!alive && !stopping) {
      stopping = true;
      child.kill("SIGTERM");
    }
  }, data.settings.STUDYLOOP_HEARTBEAT_SECONDS * 1000);
  const checkpoint = setInterval(() => {
    const transcript = pane ? capturePane(pane, tmux) : null;
    if (transcript) void store.checkpoint(id, transcript, new Date()).catch(() => undefined);
  }, data.settings.STUDYLOOP_CHECKPOINT_SECONDS * 1000);
  // Ctrl-C in the pane reaches the agent directly (same process group): it is the agent's to handle.
  process.on("SIGINT", () => undefined);
  // tmux closing the pane (kill-session, kill-server) hangs us up: the session is gone with it.
  let tmuxClosed = false;
  for (const signal of ["SIGHUP", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping = true;
      tmuxClosed = true;
      child.kill("SIGTERM");
    });
  }

  const exitCode = await new Promise<number>((resolve) => {
    child.on("error", () => resolve(127));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  clearInterval(heartbeat);
  clearInterval(checkpoint);
  // tmux killed outright hangs up the agent and us at once, and the agent's exit can come first:
  // a pane tmux no longer knows (our pane lives as long as we run) means tmux went, not the agent.
  if (!tmuxClosed && pane && paneId(pane, tmux) === null) tmuxClosed = true;
  const transcript = tmuxClosed || !pane ? null : capturePane(pane, tmux);
  const fresh = await store.byId(id);
  if (fresh && !fresh.endedAt) {
    // The agent's own exit, or tmux closing under it: the reason says which.
    const reason = tmuxClosed ? "tmux-gone" : exitCode === 127 ? "startup-failed" : "agent-exited";
    await store.end(fresh, { reason, endedAt: new Date(), exitCode: tmuxClosed ? null : exitCode, transcript });
  } else if (transcript) {
    await store.checkpoint(id, transcript, new Date());
  }
  await data.close();
  return exitCode;
}

/**
 * Waits (bounded) for the recorder's lock: output before it would be timed when the recorder woke. A
 * recorder that gave up is not waited for once tmux noticed (it notices at the pane's next output).
 */
async function recorderReady(dir: string, pane: string, tmux: TmuxOptions): Promise<void> {
  const deadline = Date.now() + RECORDER_READY_MS;
  while (!recorderRunning(dir) && Date.now() < deadline && panePiped(pane, tmux) !== false) await new Promise((r) => setTimeout(r, 100));
}
