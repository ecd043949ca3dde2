// `studyloop status`: the current session, its verdict, and how to reach it.
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand } from "./options.ts";
import { openLocalData } from "./local-data.ts";
import { DATA_OPTIONS, dataChoice } from "./database-option.ts";
import { isLiveish } from "../sessions/verdict.ts";
import { say } from "./output.ts";

export const statusCommand: CommandSpec = {
  name: "status",
  summary: "Show the current study session, whether it is live, and how to reach it.",
  usage: "studyloop status [--data-dir D] [--database URL]",
  options: [...DATA_OPTIONS],
};

export async function runStatus(argv: readonly string[]): Promise<number> {
  const parsed = parseCommand(statusCommand, argv);
  if (parsed.help) {
    say(formatHelp(statusCommand));
    return 0;
  }
  const chosen = dataChoice(parsed.options);
  const data = await openLocalData(chosen.dataDir, chosen.database);
  try {
    // A read like any other: a session whose owner is gone is ended here and reported so.
    const state = await data.sessions.state();
    const current = (await data.sessions.reconcileOpen()).find((j) => isLiveish(j.verdict));
    if (!state.session || !current) {
      say("No study session is running.");
      if (state.lastEnded) say(`Last session: "${state.lastEnded.topic}". ${state.lastEnded.explanation ?? ""}`.trim());
      return 0;
    }
    const s = state.session;
    const v = current.verdict;
    say(
      `"${s.topic}" with ${s.agent} (${s.transport}), since ${new Date(s.startedAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}.`,
    );
    say(`Verdict: ${v.kind} (${v.rule}).`);
    if (v.kind === "live-elsewhere" && v.via === "tmux") {
      say(`Reach it: studyloop study --resume   (tmux session ${v.muxSession}); end it: studyloop study --end`);
    } else if (v.kind === "live-elsewhere") {
      say(`Reach it: open ${v.ownerUrl ?? "its StudyLoop server"}/study; end it: studyloop study --end`);
    } else if (state.verdict?.notice) {
      say(state.verdict.notice);
    }
    return 0;
  } finally {
    await data.close();
  }
}
