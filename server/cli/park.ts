// `studyloop park "question"`: the tutor parks a stray thought in the running session, marked as
// from the agent, so the learner can come back to it after focusing.
import { PARKED_TEXT_MAX_CHARS } from "../api/schemas.ts";
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand, UsageError } from "./options.ts";
import type { Fetch } from "./session-client.ts";
import { sessionWriter } from "./session-writer.ts";
import { say } from "./output.ts";
import { DATA_OPTIONS, dataChoice, type DataChoice } from "./database-option.ts";

export const parkCommand: CommandSpec = {
  name: "park",
  summary: "Park a thought in the running study session, to come back to after focusing (for the tutor).",
  usage: 'studyloop park "TEXT" [--data-dir D] [--database URL]',
  options: [...DATA_OPTIONS],
  maxPositionals: Number.POSITIVE_INFINITY,
};

/** What --help says about where park, topic and card write. */
export const WHERE_IT_WRITES =
  "Run it inside a StudyLoop session (the tutor's terminal). With --data-dir or --database it writes to that data's running session itself (as the learner outside a session).";

/** The text to park, from the words given (quoted or not). Pure. */
export function parseParkArgs(argv: readonly string[]): { help: true } | ({ help: false; text: string } & DataChoice) {
  const parsed = parseCommand(parkCommand, argv);
  if (parsed.help) return { help: true };
  const text = parsed.positionals.join(" ").trim();
  if (!text) throw new UsageError('Say what to park, e.g. studyloop park "why do closures capture variables?"');
  if (text.length > PARKED_TEXT_MAX_CHARS) {
    throw new UsageError(
      `The thought is ${text.length} characters long; park at most ${PARKED_TEXT_MAX_CHARS} (a sentence or two). Nothing was written.`,
    );
  }
  return { help: false, text, ...dataChoice(parsed.options) };
}

export async function runPark(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  fetchImpl?: Fetch,
): Promise<number> {
  const args = parseParkArgs(argv);
  if (args.help) {
    say(`${formatHelp(parkCommand)}\n\n${WHERE_IT_WRITES}`);
    return 0;
  }
  await sessionWriter("park", env, fetchImpl, args).park(args.text);
  say(`Parked for after the session: ${args.text}`);
  return 0;
}
