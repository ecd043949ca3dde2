// Where `studyloop park`, `topic` and `card` write: to the web server that runs the session (over
// HTTP, with the session token), or straight into a data directory's database through the same
// StudyLog the server uses: for a session in tmux that no server runs, and whenever the command line
// names the data (--data-dir, --database). With a session token the write is the tutor's, into the
// token's session; without one it is the learner's, into the running session (a card needs a topic).
import { isApiError, toApiError } from "../api/api-error.ts";
import { isRefusal } from "../errors/refusal.ts";
import { ParkSchema, TopicMarkSchema, parseBody } from "../api/schemas.ts";
import { StudyLog } from "../study/study-log.ts";
import { NewCardSchema } from "../cards/card-schemas.ts";
import { openLocalData, type LocalData } from "./local-data.ts";
import { UsageError } from "./options.ts";
import { cliRefusal } from "./cli-errors.ts";
import { RefusedError, postToSession, sessionEnv, type Fetch } from "./session-client.ts";
import { choosesData, type DataChoice } from "./database-option.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionWriter {
  park(text: string): Promise<void>;
  mark(mark: { topic: string; status: string; note?: string }): Promise<void>;
  /** A card by the tutor; answers with the topic it was filed under. */
  card(card: { front: string; back: string; topic?: string }): Promise<{ topic: string }>;
}

export function sessionWriter(command: string, env: Env, fetchImpl?: Fetch, chosen: DataChoice = {}): SessionWriter {
  const token = env.STUDYLOOP_SESSION_TOKEN?.trim() || undefined;
  const dataDir = env.STUDYLOOP_DATA_DIR?.trim() || undefined;
  const database = env.STUDYLOOP_DATABASE_URL?.trim() || undefined;
  if (choosesData(chosen)) return localWriter(chosen.dataDir ?? dataDir, chosen.database ?? database, token, env);
  if (!env.STUDYLOOP_URL?.trim() && token && dataDir) return localWriter(dataDir, database, token, env);
  const session = sessionEnv(command, env);
  return {
    park: async (text) => void (await postToSession(session, "/api/parking", { text }, fetchImpl)),
    mark: async (mark) => void (await postToSession(session, "/api/session/topics", mark, fetchImpl)),
    card: async (card) => ((await postToSession(session, "/api/cards", card, fetchImpl)) as { card: { topic: string } }).card,
  };
}

function localWriter(dataDir: string | undefined, database: string | undefined, token: string | undefined, env: Env): SessionWriter {
  const write = async <T>(fn: (study: StudyLog, sessionId: string | undefined, data: LocalData) => Promise<T>): Promise<T> => {
    const data = await openLocalData(dataDir, database, env);
    try {
      const sessionId = token ? await data.sessions.sessionForToken(token) : undefined;
      return await fn(new StudyLog(data.db, data.sessions, data.sessions.events, { log: () => undefined }), sessionId, data);
    } catch (error) {
      // The request's own refusals (parseBody's, the study loop's) answer as they would over HTTP.
      const refusal = isApiError(error) || isRefusal(error) ? toApiError(error) : null;
      if (!refusal) throw cliRefusal(error);
      if (refusal.status === 400) throw new UsageError(refusal.message);
      throw new RefusedError(refusal.message, refusal.status);
    } finally {
      await data.close();
    }
  };
  return {
    park: (text) =>
      write((study, id) => study.park(parseBody(ParkSchema, { text }).text, id ? "agent" : "learner", id)).then(() => undefined),
    mark: (mark) => write((study, id) => study.mark(parseBody(TopicMarkSchema, mark), id ? "agent" : "learner", id)).then(() => undefined),
    card: (card) =>
      write((_study, id, data) =>
        data.cards.create(parseBody(NewCardSchema, card), id ? { source: "agent", sessionId: id } : { source: "learner" }),
      ),
  };
}
