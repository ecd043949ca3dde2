// `studyloop`: the command-line entry. Each command lives in its own file; this one dispatches and
// turns usage mistakes into one sentence on stderr with exit code 2.
import { UsageError } from "./options.ts";
import { runWeb, webCommand } from "./web.ts";
import { parkCommand, runPark } from "./park.ts";
import { runTopic, topicCommand } from "./topic.ts";
import { runStudy, studyCommand } from "./study.ts";
import { runStatus, statusCommand } from "./status.ts";
import { runTmuxRun } from "./tmux-run.ts";
import { runRecordPane } from "./record-pane.ts";
import { cardCommand, cardsCommand, runCard, runCards } from "./card.ts";
import { cliRefusal } from "./cli-errors.ts";
import { recallCommand, runRecall } from "./recall.ts";
import { say, warn } from "./output.ts";

const COMMANDS = [webCommand, studyCommand, statusCommand, parkCommand, topicCommand, cardCommand, cardsCommand, recallCommand] as const;

const HELP = `Usage: studyloop <command> [options]

StudyLoop web: a study dashboard around a command-line AI tutor.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(8)}${c.summary}`).join("\n")}

Run "studyloop <command> --help" for a command's options.`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "--help":
      case "-h":
      case "help":
        say(HELP);
        return 0;
      case "web":
        return await runWeb(rest);
      case "study":
        return await runStudy(rest);
      case "status":
        return await runStatus(rest);
      case "_tmux-run":
        return await runTmuxRun(rest);
      case "_record-pane":
        return await runRecordPane(rest);
      case "park":
        return await runPark(rest);
      case "topic":
        return await runTopic(rest);
      case "card":
        return await runCard(rest);
      case "cards":
        return await runCards(rest);
      case "recall":
        return await runRecall(rest);
      default:
        throw new UsageError(`Unknown command "${command}". Run "studyloop --help" to see the commands.`);
    }
  } catch (caught) {
    const error = cliRefusal(caught);
    if (error instanceof UsageError) {
      warn(`studyloop: ${error.message}`);
      return error.exitCode;
    }
    warn(`studyloop: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
