// Where `studyloop park` and `studyloop topic` write: to the web server that runs the session (over
// HTTP, with the session token), or, for a session in tmux that no server runs, straight into the
// data directory's database through the same StudyLog the server uses.
import { isApiError } from "../api/api-error.ts";
import { ParkSchema, TopicMarkSchema, parseBody } from "../api/schemas.ts";
import { StudyLog } from "../study/study-log.ts";
import { openLocalData } from "./local-data.ts";
import { UsageError } from "./options.ts";
import { cliRefusal } from "./cli-errors.ts";
import { RefusedError, postToSession, sessionEnv, type Fetch } from "./session-client.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionWriter {
  park(text: string): Promise<void>;
  mark(mark: { topic: string; status: string; note?: string }): Promise<void>;
}

export function sessionWriter(command: string, env: Env, fetchImpl?: Fetch): SessionWriter {
  const token = env.STUDYLOOP_SESSION_TOKEN?.trim();
  if (!env.STUDYLOOP_URL?.trim() && token && env.STUDYLOOP_DATA_DIR?.trim()) return localWriter(env.STUDYLOOP_DATA_DIR, token);
  const session = sessionEnv(command, env);
  return {
    park: async (text) => void (await postToSession(session, "/api/parking", { text }, fetchImpl)),
    mark: async (mark) => void (await postToSession(session, "/api/session/topics", mark, fetchImpl)),
  };
}

function localWriter(dataDir: string, token: string): SessionWriter {
  const write = async (fn: (study: StudyLog, sessionId: string) => Promise<unknown>) => {
    const data = await openLocalData(dataDir);
    try {
      const sessionId = await data.sessions.sessionForToken(token);
      await fn(new StudyLog(data.db, data.sessions, data.sessions.events, { log: () => undefined }), sessionId);
    } catch (error) {
      if (!isApiError(error)) throw cliRefusal(error);
      if (error.status === 400) throw new UsageError(error.message);
      throw new RefusedError(error.message, error.status);
    } finally {
      await data.close();
    }
  };
  return {
    park: (text) => write((study, id) => study.park(parseBody(ParkSchema, { text }).text, "agent", id)),
    mark: (mark) => write((study, id) => study.mark(parseBody(TopicMarkSchema, mark), "agent", id)),
  };
}
