// `studyloop topic "closures" --status win|struggling|learning|insight [--note ...]`: the tutor
// records how a topic is going; the study page shows it at once and the summary counts it.
import { PARKED_TEXT_MAX_CHARS } from "../api/schemas.ts";
import { TOPIC_MAX_CHARS } from "../../common/study/topic-limits.ts";
import { MARK_STATUSES, type MarkStatus } from "../../common/study/study-view.ts";
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand, UsageError } from "./options.ts";
import type { Fetch } from "./session-client.ts";
import { sessionWriter } from "./session-writer.ts";
import { say } from "./output.ts";
import { DATA_OPTIONS, dataChoice, type DataChoice } from "./database-option.ts";
import { WHERE_IT_WRITES } from "./park.ts";

export const topicCommand: CommandSpec = {
  name: "topic",
  summary: "Mark how a topic is going in the running study session: a win, a struggle, learning, an insight (for the tutor).",
  usage: 'studyloop topic "TOPIC" --status win|struggling|learning|insight [--note "what happened"] [--data-dir D] [--database URL]',
  options: [
    { name: "status", kind: "string", value: "S", description: `How it is going: ${MARK_STATUSES.join(", ")}.` },
    { name: "note", kind: "string", value: "TEXT", description: "A short note: what happened, what to try next." },
    ...DATA_OPTIONS,
  ],
  maxPositionals: Number.POSITIVE_INFINITY,
};

export interface TopicArgs {
  readonly topic: string;
  readonly status: MarkStatus;
  readonly note?: string;
}

const SAY_STATUS = `Give --status ${MARK_STATUSES.join("|")}`;

/** The mark, from the words given. Pure. */
export function parseTopicArgs(argv: readonly string[]): { help: true } | ({ help: false } & TopicArgs & DataChoice) {
  const parsed = parseCommand(topicCommand, argv);
  if (parsed.help) return { help: true };
  const topic = parsed.positionals.join(" ").trim();
  if (!topic) throw new UsageError(`Name the topic, e.g. studyloop topic "closures" --status win.`);
  if (topic.length > TOPIC_MAX_CHARS) throw new UsageError(`The topic is ${topic.length} characters long; use at most ${TOPIC_MAX_CHARS}.`);
  const status = parsed.options.status;
  if (status === undefined) throw new UsageError(`${SAY_STATUS}: how is "${topic}" going?`);
  if (!(MARK_STATUSES as readonly unknown[]).includes(status))
    throw new UsageError(`--status must be one of ${MARK_STATUSES.join(", ")}, not "${String(status)}".`);
  const note = typeof parsed.options.note === "string" ? parsed.options.note.trim() : undefined;
  if (note !== undefined && note.length > PARKED_TEXT_MAX_CHARS)
    throw new UsageError(`The note is ${note.length} characters long; use at most ${PARKED_TEXT_MAX_CHARS}.`);
  return { help: false, topic, status: status as MarkStatus, ...(note ? { note } : {}), ...dataChoice(parsed.options) };
}

const SAID: Record<MarkStatus, string> = { win: "a win", struggling: "a struggle", learning: "learning", insight: "an insight" };

export async function runTopic(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  fetchImpl?: Fetch,
): Promise<number> {
  const args = parseTopicArgs(argv);
  if (args.help) {
    say(`${formatHelp(topicCommand)}\n\n${WHERE_IT_WRITES}`);
    return 0;
  }
  const { topic, status, note } = args;
  await sessionWriter("topic", env, fetchImpl, args).mark({ topic, status, ...(note ? { note } : {}) });
  say(`Marked "${topic}" as ${SAID[status]}.`);
  return 0;
}
