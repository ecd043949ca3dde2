// `studyloop study`: a study session in tmux, started from the terminal. It survives a closed
// terminal window; the web dashboard sees it and can open it in the browser.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "../config/paths.ts";
import { StartSessionSchema } from "../api/schemas.ts";
import { attachCommand, tmuxVersion, TMUX_INSTALL_HINT } from "../transports/tmux/tmux-control.ts";
import { isLiveish } from "../sessions/verdict.ts";
import type { CommandSpec } from "./options.ts";
import { UsageError, formatHelp, parseCommand } from "./options.ts";
import { openLocalData } from "./local-data.ts";
import { DATA_OPTIONS, dataChoice } from "./database-option.ts";
import { databaseArgument } from "../db/database-target.ts";
import type { EndOutcome } from "../sessions/session-service.ts";
import type { SessionView } from "../sessions/session-view.ts";
import { cliRefusal } from "./cli-errors.ts";
import { say, warn } from "./output.ts";
import { startPaneRecorder } from "./record-pane.ts";

export const studyCommand: CommandSpec = {
  name: "study",
  summary: "Start a study session in tmux (or --resume / --end the current one).",
  usage: 'studyloop study "TOPIC" [--agent A] [--energy N] [--detach] [--data-dir D] [--database URL] | --resume | --end',
  maxPositionals: 20,
  options: [
    { name: "agent", kind: "string", value: "A", description: "Tutor agent (default: the first one installed)." },
    { name: "energy", kind: "string", value: "N", description: "Your energy from 1 to 10 (default 5): sets the focus plan." },
    { name: "detach", kind: "boolean", description: "Start in the background; attach later with --resume." },
    { name: "resume", kind: "boolean", description: "Reattach this terminal to the running session." },
    { name: "end", kind: "boolean", description: "End the running session: the summary is written and tmux closes." },
    ...DATA_OPTIONS,
  ],
};

export async function runStudy(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(studyCommand, argv);
  if (parsed.help) {
    say(formatHelp(studyCommand));
    return 0;
  }
  const o = parsed.options;
  if ([o.resume, o.end, parsed.positionals.length > 0].filter(Boolean).length > 1) {
    throw new UsageError("Give a topic to start, or --resume, or --end: one at a time.");
  }
  // Before anything is written: without tmux there is nothing to run the session in.
  if (!tmuxVersion()) throw new UsageError(TMUX_INSTALL_HINT);

  const chosen = dataChoice(o);
  const data = await openLocalData(chosen.dataDir, chosen.database);
  try {
    const tmux = { socket: data.settings.STUDYLOOP_TMUX_SOCKET };
    const open = (await data.sessions.reconcileOpen()).find((j) => isLiveish(j.verdict));

    if (o.resume || o.end) {
      if (!open) throw new UsageError('No study session is running. Start one with: studyloop study "TOPIC"');
      if (o.end) {
        // Ends it wherever it runs: tmux is closed, a browser session's server stops its agent.
        const outcome = await data.sessions.end("ended-by-learner");
        const view = outcome.endingOn ? await waitForEnd(data, outcome) : outcome.session;
        if (!view.endedAt) {
          say(
            `Asked the StudyLoop server on ${outcome.endingOn?.host ?? "another machine"} to end "${view.topic}": it stops the tutor within a few seconds.`,
          );
          return 0;
        }
        say(
          `Ended "${view.topic}" after ${view.durationMinutes ?? 0} min. ${view.summary?.forNextSession.length ? `For next time: ${view.summary.forNextSession.join("; ")}.` : ""}`.trim(),
        );
        return 0;
      }
      if (open.row.transport !== "tmux" || !open.row.muxSession) {
        throw new UsageError(
          `The running session "${open.row.topic}" is a browser session: open ${open.row.ownerUrl ?? "the StudyLoop page"}/study to rejoin it.`,
        );
      }
      return attach(open.row.muxSession, tmux);
    }

    const topic = parsed.positionals.join(" ").trim();
    if (!topic) throw new UsageError('Give a topic: studyloop study "closures".');
    const agent = (o.agent as string | undefined) ?? data.agents.list().find((a) => a.available)?.name;
    if (!agent)
      throw new UsageError(
        "No tutor agent is installed: install one (see studyloop web's Study page) or add one to studyloop.config.json.",
      );
    const input = StartSessionSchema.safeParse({ topic, energy: Number(o.energy ?? 5), agent });
    if (!input.success) throw new UsageError(cliMessage(input.error.issues[0]?.message ?? "The session details are not valid"));

    let started;
    try {
      started = await data.sessions.startInTmux(input.data, tmux, (id) => [
        process.execPath,
        path.join(PROJECT_ROOT, "bin", "studyloop.js"),
        "_tmux-run",
        "--session",
        id,
        "--data-dir",
        data.dataDir,
        // The same database, said explicitly: tmux does not pass this shell's DATABASE_URL on.
        "--database",
        databaseArgument(data.target),
      ]);
    } catch (error) {
      throw cliRefusal(error);
    }
    if (
      !startPaneRecorder(started.session.id, started.muxSession, data.dataDir, data.settings.STUDYLOOP_RECORDING_MAX_MB, tmux, data.target)
    )
      if (data.settings.STUDYLOOP_RECORDING_MAX_MB > 0)
        warn("This session could not be recorded (tmux refused to pipe its pane); it runs unrecorded.");
    say(`Started "${topic}" with ${agent} in tmux session ${started.muxSession}.`);
    if (o.detach) {
      say("It runs in the background: `studyloop study --resume` attaches, `studyloop study --end` ends it.");
      return 0;
    }
    return attach(started.muxSession, tmux);
  } finally {
    await data.close();
  }
}

function attach(name: string, tmux: { socket?: string }): number {
  if (!process.stdin.isTTY) {
    say(
      `Not a terminal here: attach from one with \`tmux ${tmux.socket ? `-L ${tmux.socket} ` : ""}attach -t ${name}\` or \`studyloop study --resume\`.`,
    );
    return 0;
  }
  const { command, args } = attachCommand(name, tmux);
  const result = spawnSync(command, args, { stdio: "inherit" });
  return result.status ?? 0;
}

function cliMessage(message: string): string {
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return sentence.endsWith(".") ? sentence : `${sentence}.`;
}

/** End asked of the server that runs the session: it ends it on its next beat; wait a lease for it. */
async function waitForEnd(data: Awaited<ReturnType<typeof openLocalData>>, outcome: EndOutcome): Promise<SessionView> {
  const until = Date.now() + (data.settings.STUDYLOOP_LEASE_SECONDS + data.settings.STUDYLOOP_HEARTBEAT_SECONDS) * 1000;
  let view = outcome.session;
  while (!view.endedAt && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    view = (await data.sessions.session(view.id))?.view ?? view;
  }
  return view;
}
