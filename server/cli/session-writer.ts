// Where `studyloop park`, `topic` and `card` write: to the web server that runs the session (over
// HTTP, with the session token), or, for a session in tmux that no server runs, straight into the
// data directory's database through the same StudyLog the server uses.
import { isApiError, toApiError } from "../api/api-error.ts";
import { isRefusal } from "../errors/refusal.ts";
import { ParkSchema, TopicMarkSchema, parseBody } from "../api/schemas.ts";
import { StudyLog } from "../study/study-log.ts";
import { NewCardSchema } from "../cards/card-schemas.ts";
import { openLocalData, type LocalData } from "./local-data.ts";
import { UsageError } from "./options.ts";
import { cliRefusal } from "./cli-errors.ts";
import { RefusedError, postToSession, sessionEnv, type Fetch } from "./session-client.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionWriter {
  park(text: string): Promise<void>;
  mark(mark: { topic: string; status: string; note?: string }): Promise<void>;
  /** A card by the tutor; answers with the topic it was filed under. */
  card(card: { front: string; back: string; topic?: string }): Promise<{ topic: string }>;
}

export function sessionWriter(command: string, env: Env, fetchImpl?: Fetch): SessionWriter {
  const token = env.STUDYLOOP_SESSION_TOKEN?.trim();
  if (!env.STUDYLOOP_URL?.trim() && token && env.STUDYLOOP_DATA_DIR?.trim())
    return localWriter(env.STUDYLOOP_DATA_DIR, env.STUDYLOOP_DATABASE_URL?.trim() || undefined, token, env);
  const session = sessionEnv(command, env);
  return {
    park: async (text) => void (await postToSession(session, "/api/parking", { text }, fetchImpl)),
    mark: async (mark) => void (await postToSession(session, "/api/session/topics", mark, fetchImpl)),
    card: async (card) => ((await postToSession(session, "/api/cards", card, fetchImpl)) as { card: { topic: string } }).card,
  };
}

function localWriter(dataDir: string, database: string | undefined, token: string, env: Env): SessionWriter {
  const write = async <T>(fn: (study: StudyLog, sessionId: string, data: LocalData) => Promise<T>): Promise<T> => {
    const data = await openLocalData(dataDir, database, env);
    try {
      const sessionId = await data.sessions.sessionForToken(token);
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
    park: (text) => write((study, id) => study.park(parseBody(ParkSchema, { text }).text, "agent", id)).then(() => undefined),
    mark: (mark) => write((study, id) => study.mark(parseBody(TopicMarkSchema, mark), "agent", id)).then(() => undefined),
    card: (card) => write((_study, id, data) => data.cards.create(parseBody(NewCardSchema, card), { source: "agent", sessionId: id })),
  };
}
