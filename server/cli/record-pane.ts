// `studyloop _record-pane`: what tmux's pipe-pane runs for a CLI session (set up by `studyloop study`
// right after tmux started it, so the recorder loads while `_tmux-run` does). It reads the pane's
// output on stdin and keeps the session's learning record (recording/pane-recorder.ts) until the pane
// closes. Internal: not listed in --help.
import type { Db } from "../db/client.ts";
import { PaneRecorder } from "../recording/pane-recorder.ts";
import path from "node:path";
import { PROJECT_ROOT } from "../config/paths.ts";
import { sessionDir } from "../recording/record-files.ts";
import { paneId, pipePane, probePaneSize, type TmuxOptions } from "../transports/tmux/tmux-control.ts";
import type { CommandSpec } from "./options.ts";
import { UsageError, parseCommand } from "./options.ts";
import { DATABASE_OPTION, openLocalData } from "./local-data.ts";
import { databaseArgument, type DatabaseTarget } from "../db/database-target.ts";
import { warn } from "./output.ts";

export const recordPaneCommand: CommandSpec = {
  name: "_record-pane",
  summary: "(internal) record a CLI session's tmux pane, fed by tmux pipe-pane",
  usage: "studyloop _record-pane --session ID --pane %N --data-dir D [--database URL] [--tmux-socket S] [--max-mb N]",
  options: [
    { name: "session", kind: "string", value: "ID", description: "The session id." },
    { name: "pane", kind: "string", value: "%N", description: "The tmux pane (its size is read from tmux)." },
    { name: "data-dir", kind: "string", value: "D", description: "Data directory." },
    DATABASE_OPTION,
    { name: "tmux-socket", kind: "string", value: "S", description: "tmux -L socket name." },
    { name: "max-mb", kind: "string", value: "N", description: "Megabytes the recording may reach." },
  ],
};

/** How long to wait, once the pane closed, for the row to say why the session ended (ms). */
const END_REASON_WAIT_MS = 5_000;
const END_REASON_POLL_MS = 100;

export async function runRecordPane(argv: readonly string[]): Promise<number> {
  const o = parseCommand(recordPaneCommand, argv).options;
  const id = o.session as string | undefined;
  const pane = o.pane as string | undefined;
  const maxMb = Number(o["max-mb"] ?? 200);
  if (!id || !pane) throw new UsageError("--session and --pane are required.");
  if (!Number.isFinite(maxMb) || maxMb <= 0) throw new UsageError("--max-mb must be a positive number.");
  const tmux = { socket: o["tmux-socket"] as string | undefined };
  const data = await openLocalData(o["data-dir"] as string | undefined, o.database as string | undefined);
  try {
    const row = await data.db.studySession.findUnique({ where: { id }, select: { startedAt: true, endedAt: true } });
    if (!row || row.endedAt) {
      warn(row ? "This study session has already ended." : "This study session cannot be found.");
      return 2;
    }
    const recorder = await PaneRecorder.open({
      db: data.db,
      dataDir: data.dataDir,
      sessionId: id,
      startedAt: row.startedAt,
      size: (await probePaneSize(pane, tmux)) ?? { cols: 80, rows: 24 },
      maxBytes: maxMb * 1_000_000,
      probeSize: () => probePaneSize(pane, tmux),
      log: warn,
    });
    process.stdin.setEncoding("utf8"); // a character tmux cut in two is joined before it is recorded
    process.stdin.on("data", (chunk: string) => recorder.output(chunk));
    await new Promise<void>((resolve) => {
      process.stdin.once("end", resolve);
      process.stdin.once("error", () => resolve());
      // The pane closing is the usual end; a signal (the machine shutting down) ends it the same way.
      for (const signal of ["SIGTERM", "SIGHUP"] as const) process.once(signal, resolve);
    });
    process.stdin.pause();
    await recorder.close(await endReason(data.db, id));
    return 0;
  } finally {
    await data.close();
  }
}

/** The reason the row gives once whoever ends the session (usually `_tmux-run`, a moment later) wrote it. */
async function endReason(db: Db, id: string): Promise<string | null> {
  const deadline = Date.now() + END_REASON_WAIT_MS;
  for (;;) {
    const row = await db.studySession.findUnique({ where: { id }, select: { endedAt: true, endReason: true } }).catch(() => null);
    if (row?.endedAt || Date.now() > deadline) return row?.endReason ?? null;
    await new Promise((r) => setTimeout(r, END_REASON_POLL_MS));
  }
}

/**
 * Has tmux pipe the new session's pane into `_record-pane` (its errors into the session folder's
 * recorder.log). False when nothing records it (recording off, or tmux refused).
 */
export function startPaneRecorder(
  sessionId: string,
  muxSession: string,
  dataDir: string,
  maxMb: number,
  tmux: TmuxOptions,
  target?: DatabaseTarget,
): boolean {
  if (maxMb <= 0) return false;
  const pane = paneId(`=${muxSession}:`, tmux);
  if (!pane) return false;
  const command = [
    process.execPath,
    path.join(PROJECT_ROOT, "bin", "studyloop.js"),
    "_record-pane",
    "--session",
    sessionId,
    "--pane",
    pane,
    "--data-dir",
    dataDir,
    ...(target ? ["--database", databaseArgument(target)] : []),
    "--max-mb",
    String(maxMb),
    ...(tmux.socket ? ["--tmux-socket", tmux.socket] : []),
  ];
  return pipePane(pane, command, { ...tmux, stderrFile: path.join(sessionDir(dataDir, sessionId), "recorder.log") });
}
