// `studyloop recall "closures"`: the best matching moments from past sessions (date, topic, the text
// around the match, a link), so a tutor can build on what the learner did before. Inside a session
// it asks the server with the session's token (its own session is left out); in a CLI session that
// no server runs, or in a plain shell, it reads the data directory's index itself.
import { SEARCH_MAX_CHARS } from "../api/study-schemas.ts";
import { SearchIndex, type SearchHit } from "../recording/search-index.ts";
import { snippetLine } from "../../common/search-snippets.ts";
import { clock } from "../../common/transcript-text.ts";
import { openLocalData } from "./local-data.ts";
import { choosesData, DATA_OPTIONS, dataChoice, type DataChoice } from "./database-option.ts";
import type { CommandSpec } from "./options.ts";
import { formatHelp, parseCommand, UsageError } from "./options.ts";
import { postToSession, sessionEnv, type Fetch } from "./session-client.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const recallCommand: CommandSpec = {
  name: "recall",
  summary: "Find moments from past study sessions: transcripts, conversations, summaries, notes (for the tutor, too).",
  usage: 'studyloop recall "WORDS" [--limit N] [--data-dir D] [--database URL]',
  options: [{ name: "limit", kind: "string", value: "N", description: "How many moments to print (1-20, default 5)." }, ...DATA_OPTIONS],
  maxPositionals: Number.POSITIVE_INFINITY,
};

export interface RecallArgs extends DataChoice {
  readonly query: string;
  readonly limit: number;
}

/** The words and options, checked. Pure. */
export function parseRecallArgs(argv: readonly string[]): { help: true } | ({ help: false } & RecallArgs) {
  const parsed = parseCommand(recallCommand, argv);
  if (parsed.help) return { help: true };
  const query = parsed.positionals.join(" ").trim();
  if (!query) throw new UsageError('Say what to look for, e.g. studyloop recall "closures".');
  if (query.length > SEARCH_MAX_CHARS)
    throw new UsageError(`The search is ${query.length} characters long; use at most ${SEARCH_MAX_CHARS}.`);
  const rawLimit = parsed.options.limit;
  const limit = rawLimit === undefined ? 5 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 20)
    throw new UsageError(`--limit must be a whole number from 1 to 20, not "${String(rawLimit)}".`);
  return { help: false, query, limit, ...dataChoice(parsed.options) };
}

/** What a terminal shows of stored text: no control characters or bidi overrides. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ");
}

/** The moments as the command prints them. Pure. */
export function formatRecall(query: string, hits: readonly SearchHit[], baseUrl: string | null): string {
  if (hits.length === 0) return `Nothing from past sessions matches "${printable(query)}".`;
  const lines = [`${hits.length} ${hits.length === 1 ? "moment" : "moments"} from past sessions matching "${printable(query)}":`, ""];
  hits.forEach((hit, i) => {
    const date = new Date(hit.startedAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    const where =
      hit.kind === "transcript" && hit.atMs !== null
        ? `transcript at ${clock(hit.atMs)}`
        : hit.kind === "chat" && hit.atMs !== null
          ? `conversation at ${clock(hit.atMs)}`
          : hit.kind;
    lines.push(`${i + 1}. ${date} UTC · ${printable(hit.topic)} · ${where}`);
    lines.push(`   ${printable(snippetLine(hit.snippet))}`);
    lines.push(`   ${baseUrl ? baseUrl : ""}${hit.href}`);
  });
  return lines.join("\n");
}

export async function runRecall(argv: readonly string[], env: Env = process.env, fetchImpl?: Fetch): Promise<number> {
  const args = parseRecallArgs(argv);
  if (args.help) {
    console.log(
      `${formatHelp(recallCommand)}\n\nInside a StudyLoop session it searches every earlier session; elsewhere, the data directory's.`,
    );
    return 0;
  }
  const { hits, baseUrl } = await recall(args, env, fetchImpl);
  console.log(formatRecall(args.query, hits, baseUrl));
  return 0;
}

async function recall(args: RecallArgs, env: Env, fetchImpl?: Fetch): Promise<{ hits: SearchHit[]; baseUrl: string | null }> {
  if (env.STUDYLOOP_URL?.trim() && env.STUDYLOOP_SESSION_TOKEN?.trim() && !choosesData(args)) {
    const session = sessionEnv("recall", env);
    const answer = (await postToSession(session, "/api/session/recall", { query: args.query, limit: args.limit }, fetchImpl)) as {
      hits?: SearchHit[];
    };
    return { hits: answer.hits ?? [], baseUrl: session.url };
  }
  const data = await openLocalData(
    args.dataDir ?? (env.STUDYLOOP_DATA_DIR?.trim() || undefined),
    args.database ?? (env.STUDYLOOP_DATABASE_URL?.trim() || undefined),
    env,
  );
  try {
    const token = env.STUDYLOOP_SESSION_TOKEN?.trim();
    const own = token ? await data.sessions.sessionForToken(token).catch(() => undefined) : undefined;
    return { hits: await new SearchIndex(data.db).search(args.query, { limit: args.limit, excludeSessionId: own }), baseUrl: null };
  } finally {
    await data.close();
  }
}
